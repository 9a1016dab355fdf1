/**
 * A small L2-regularised logistic regression over binary string features: enough for a few
 * thousand labelled lines, trained in well under a second, stored as a JSON map of weights.
 * No dependency: full-batch gradient descent with Adam steps, deterministic (no random start).
 */
export interface LogisticModel {
  bias: number;
  weights: Record<string, number>;
}

export interface TrainOptions {
  /** L2 strength on the summed loss (the bias is not penalised). */
  l2: number;
  iterations?: number;
  learningRate?: number;
  /** A feature is kept only if it occurs in at least this many distinct groups (meetings). */
  minGroups?: number;
}

export interface Example {
  features: string[];
  label: boolean;
  /** Which meeting it came from: features seen in too few meetings are dropped (topic words). */
  group: string;
}

export function train(examples: Example[], options: TrainOptions): LogisticModel {
  const { l2, iterations = 300, learningRate = 0.1, minGroups = 3 } = options;
  const groupsOf = new Map<string, Set<string>>();
  for (const e of examples)
    for (const f of e.features) {
      let g = groupsOf.get(f);
      if (!g) groupsOf.set(f, (g = new Set()));
      g.add(e.group);
    }
  const names = [...groupsOf.keys()].filter((f) => groupsOf.get(f)!.size >= minGroups).sort();
  const index = new Map(names.map((n, k) => [n, k]));
  const rows = examples.map((e) =>
    Int32Array.from(new Set(e.features.map((f) => index.get(f)).filter((k): k is number => k !== undefined))),
  );
  const y = examples.map((e) => (e.label ? 1 : 0));
  const d = names.length + 1; // last slot: bias
  const w = new Float64Array(d);
  const m = new Float64Array(d);
  const v = new Float64Array(d);
  const grad = new Float64Array(d);
  const n = Math.max(1, examples.length);
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  for (let it = 1; it <= iterations; it += 1) {
    grad.fill(0);
    // Plain indexed loops: this is the whole cost of training (cross-validation trains hundreds of times).
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i]!;
      let z = w[d - 1]!;
      for (let j = 0; j < row.length; j += 1) z += w[row[j]!]!;
      const err = sigmoid(z) - y[i]!;
      for (let j = 0; j < row.length; j += 1) grad[row[j]!]! += err;
      grad[d - 1]! += err;
    }
    const c1 = 1 - b1 ** it;
    const c2 = 1 - b2 ** it;
    for (let k = 0; k < d; k += 1) {
      const g = (grad[k]! + (k === d - 1 ? 0 : l2 * w[k]!)) / n;
      m[k] = b1 * m[k]! + (1 - b1) * g;
      v[k] = b2 * v[k]! + (1 - b2) * g * g;
      const mh = m[k]! / c1;
      const vh = v[k]! / c2;
      w[k]! -= (learningRate * mh) / (Math.sqrt(vh) + eps);
    }
  }
  const weights: Record<string, number> = {};
  names.forEach((name, k) => {
    if (Math.abs(w[k]!) >= 1e-4) weights[name] = round(w[k]!);
  });
  return { bias: round(w[d - 1]!), weights };
}

/** Probability that a line with these features is a decision. */
export function probability(model: LogisticModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of new Set(features)) z += model.weights[f] ?? 0;
  return sigmoid(z);
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
