import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TRANSLATION_LANGUAGES } from '@parley/protocol';
import { ApertiumPipeline } from './apertium-pipeline.js';
import { type Translator, UnsupportedLanguageError } from './types.js';

export const APERTIUM_MODES_DIR = '/usr/share/apertium/modes';

/**
 * The Debian pairs (AI-ENGINES.md): apertium-eng-spa, apertium-fr-es, apertium-es-pt,
 * apertium-spa-ita. Spanish is the hub: English, French, Portuguese and Italian reach each other
 * through it (two pipelines, 7–10 ms a line warm).
 */
const MODES: ReadonlyArray<{ from: string; to: string; mode: string }> = [
  { from: 'en', to: 'es', mode: 'eng-spa' },
  { from: 'es', to: 'en', mode: 'spa-eng' },
  { from: 'es', to: 'fr', mode: 'es-fr' },
  { from: 'fr', to: 'es', mode: 'fr-es' },
  { from: 'es', to: 'pt', mode: 'es-pt' },
  { from: 'pt', to: 'es', mode: 'pt-es' },
  { from: 'es', to: 'it', mode: 'spa-ita' },
  { from: 'it', to: 'es', mode: 'ita-spa' },
];

export interface ApertiumOptions {
  modesDir?: string;
  /** Per pipeline request; the first one also loads the dictionaries (80–220 ms measured). */
  timeoutMs?: number;
}

export type ApertiumResult =
  { translator: ApertiumTranslator; reason?: undefined } | { translator: null; reason: string };

/**
 * The embedded translator, or null with the reason when apertium is not installed. Only the
 * modes whose files exist are used, so a machine with only apertium-eng-spa serves en↔es and
 * says so through `supports`/`targets`.
 */
export function createApertiumTranslator(options: ApertiumOptions = {}): ApertiumResult {
  const modesDir = options.modesDir ?? APERTIUM_MODES_DIR;
  const found = MODES.filter((m) => existsSync(path.join(modesDir, `${m.mode}.mode`)));
  if (found.length === 0) {
    return {
      translator: null,
      reason: `no apertium modes in ${modesDir} (install apertium-eng-spa, apertium-fr-es, apertium-es-pt, apertium-spa-ita)`,
    };
  }
  const pipelines = new Map<string, ApertiumPipeline>();
  for (const m of found) {
    let script: string;
    try {
      // Only prints the pipeline (a few ms); the pipeline itself starts on the first request.
      script = execFileSync('apertium-wblank-mode', ['-z', path.join(modesDir, `${m.mode}.mode`)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      return {
        translator: null,
        reason: `apertium-wblank-mode failed for ${m.mode}: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    pipelines.set(
      `${m.from}>${m.to}`,
      new ApertiumPipeline(m.mode, script, { timeoutMs: options.timeoutMs ?? 10_000 }),
    );
  }
  return { translator: new ApertiumTranslator(pipelines) };
}

export class ApertiumTranslator implements Translator {
  readonly name = 'apertium';
  private readonly routes = new Map<string, ApertiumPipeline[]>();

  /** @param pipelines keyed `from>to` (spec codes), one per installed mode */
  constructor(private readonly pipelines: Map<string, ApertiumPipeline>) {
    const languages = new Set([...pipelines.keys()].flatMap((k) => k.split('>')));
    for (const from of languages) {
      for (const [to, route] of shortestRoutes(from, pipelines)) this.routes.set(`${from}>${to}`, route);
    }
  }

  supports(from: string, to: string): boolean {
    if (from === to) return isSpecLanguage(from);
    return this.routes.has(`${from}>${to}`);
  }

  targets(from: string): string[] {
    return TRANSLATION_LANGUAGES.filter((to) => this.supports(from, to));
  }

  async translate(text: string, from: string, to: string): Promise<string> {
    if (!this.supports(from, to)) throw new UnsupportedLanguageError(from, to);
    if (from === to || text.trim() === '') return text;
    let out = text;
    for (const pipeline of this.routes.get(`${from}>${to}`)!) out = await pipeline.translate(out);
    return out;
  }

  /** The pipelines a pair goes through, by mode name (for logs, tests and the benchmark). */
  route(from: string, to: string): string[] {
    return (this.routes.get(`${from}>${to}`) ?? []).map((p) => p.mode);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pipelines.values()].map((p) => p.close()));
  }
}

function isSpecLanguage(code: string): boolean {
  return (TRANSLATION_LANGUAGES as readonly string[]).includes(code);
}

/** Breadth-first from `from`: the fewest pipelines to every language reachable from it. */
function shortestRoutes(
  from: string,
  pipelines: Map<string, ApertiumPipeline>,
): Map<string, ApertiumPipeline[]> {
  const routes = new Map<string, ApertiumPipeline[]>([[from, []]]);
  const queue = [from];
  while (queue.length > 0) {
    const here = queue.shift()!;
    for (const [key, pipeline] of pipelines) {
      const [a, b] = key.split('>') as [string, string];
      if (a !== here || routes.has(b)) continue;
      routes.set(b, [...routes.get(here)!, pipeline]);
      queue.push(b);
    }
  }
  routes.delete(from);
  return routes;
}
