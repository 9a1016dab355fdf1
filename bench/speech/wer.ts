/**
 * Word error rate as speech-recognition evaluations compute it: (substitutions + deletions +
 * insertions) / reference words, after normalising both sides the same way (lower case,
 * punctuation stripped, hyphens split, numbers written as spoken).
 */
const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0–999 999 as spoken in American English ("one hundred twenty three"). */
export function numberWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return `${TENS[Math.floor(n / 10)]}${n % 10 ? ` ${ONES[n % 10]}` : ''}`;
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${numberWords(n % 100)}` : ''}`;
  return `${numberWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${numberWords(n % 1000)}` : ''}`;
}

export function normalise(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/%/g, ' percent ')
    .replace(/\d+/g, (d) => ` ${Number(d) < 1_000_000 ? numberWords(Number(d)) : d} `)
    .replace(/[‘’]/g, "'")
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

export interface WordErrors {
  /** Edits (substitutions + deletions + insertions) against the reference. */
  errors: number;
  referenceWords: number;
}

export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = normalise(reference);
  const hyp = normalise(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + same));
    }
    prev = row;
  }
  return { errors: prev[hyp.length]!, referenceWords: ref.length };
}

export function sumErrors(parts: WordErrors[]): WordErrors {
  return parts.reduce(
    (a, b) => ({ errors: a.errors + b.errors, referenceWords: a.referenceWords + b.referenceWords }),
    {
      errors: 0,
      referenceWords: 0,
    },
  );
}

/** In percent, one decimal. */
export const werPercent = (e: WordErrors) =>
  Math.round((1000 * e.errors) / Math.max(1, e.referenceWords)) / 10;
