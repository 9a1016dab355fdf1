/**
 * A caption line as people write it, from what the speech engine heard: the embedded engine
 * gives lower-case words without punctuation ("hana said the budget is ready please review it").
 * Sentences are ended where the speaker paused (the decoder's word timings), each one starts
 * with a capital and ends with a full stop, or a question mark when it opens like a question;
 * participants' names are spelled as in the room's roster, days and months and "I" with a capital. A line cut at the length
 * limit while the speaker went on ends with "…", and the next line continues its sentence.
 *
 * Rules with no I/O; live.ts keeps, per speaker, whether the last line's sentence goes on.
 */

export interface HeardWord {
  word: string;
  startMs: number;
  endMs: number;
}

export interface LineInput {
  text: string;
  /** The words with their times, when the engine gives them (pauses are the gaps between). */
  words?: readonly HeardWord[];
  /** `length`: cut while speech went on; the sentence continues in the next line. */
  endedBy?: 'pause' | 'length' | 'flush';
  /** The previous line of this speaker was cut mid-sentence: this one goes on with it. */
  continues?: boolean;
  /** The room's participants' names, as the roster spells them. */
  names?: readonly string[];
}

export interface FormattedLine {
  text: string;
  /** This line was cut mid-sentence: the speaker's next line continues it. */
  continues: boolean;
}

/**
 * A pause between two words at least this long ends a sentence. The decoder ends the whole
 * utterance after 0.5 s of quiet, so the pauses inside a line are shorter than that; flite reads
 * a full stop as 0.25-0.4 s of silence, and people pause that long between sentences too.
 */
export const SENTENCE_PAUSE_MS = 250;
/** A sentence is not ended after fewer words than this (a hesitation after "so"). */
const MIN_SENTENCE_WORDS = 2;

/** Words that open a question when they start a sentence. */
const QUESTION_OPENERS = new Set([
  'what',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'how',
  'which',
  'is',
  'are',
  'am',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'should',
  'shall',
  'will',
  'have',
  'has',
  "what's",
  "who's",
  "where's",
  "how's",
  "isn't",
  "aren't",
  "don't",
  "doesn't",
  "didn't",
  "can't",
  "won't",
  "wouldn't",
  "shouldn't",
  "haven't",
]);

/**
 * Given names that are also everyday English words: spelled as a name only where a name is
 * likely (the start of a sentence is not enough evidence), so "we will" never becomes "we Will".
 */
const WORD_NAMES = new Set([
  'will',
  'may',
  'mark',
  'bill',
  'grace',
  'hope',
  'joy',
  'rose',
  'sue',
  'art',
  'pat',
  'faith',
  'june',
  'april',
  'august',
  'frank',
  'drew',
  'sky',
  'summer',
  'amber',
  'ray',
  'rob',
  'jack',
  'page',
  'dawn',
  'chase',
  'hunter',
  'king',
  'miles',
  'major',
  'guy',
  'norm',
  'penny',
  'ruby',
  'sunny',
  'river',
  'stone',
  'young',
  'long',
  'white',
  'brown',
  'green',
  'black',
  'price',
  'lane',
  'hall',
  'wood',
  'case',
  'love',
  'gay',
  'max',
  'jimmy',
  'sandy',
  'carol',
  'ivy',
  'iris',
  'lily',
  'violet',
  'heather',
  'daisy',
  'holly',
  'melody',
  'harmony',
  'patience',
  'charity',
  'honor',
  'angel',
  'sterling',
  'cash',
  'fox',
]);

/** Days and months, always written with a capital ("may" and "march" are words too: left). */
const CALENDAR = new Set([
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]);

/** Lower-case spoken form → the roster's spelling, for every part of every name in the room. */
export function rosterSpellings(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of names) {
    for (const part of name.split(/[\s,]+/)) {
      // Only letters (and ' or -) can be heard as a word: "Ana-María" is two, "J." none.
      for (const piece of part.split('-')) {
        const clean = piece.replace(/[^\p{L}']/gu, '');
        if (clean.length < 2) continue;
        const key = clean.toLowerCase();
        if (WORD_NAMES.has(key)) continue;
        if (!out.has(key)) out.set(key, clean);
      }
    }
  }
  return out;
}

/** The engine's words, split where the speaker paused long enough to end a sentence. */
function sentencesOf(input: LineInput): string[][] {
  const tokens = input.text.split(/\s+/).filter(Boolean);
  const words = input.words;
  // The timings are used only when they are the same words as the text.
  const timed =
    words && words.length === tokens.length && words.every((w, i) => w.word === tokens[i]) ? words : null;
  const sentences: string[][] = [];
  let current: string[] = [];
  tokens.forEach((token, i) => {
    current.push(token);
    const next = timed?.[i + 1];
    const here = timed?.[i];
    if (
      next &&
      here &&
      next.startMs - here.endMs >= SENTENCE_PAUSE_MS &&
      current.length >= MIN_SENTENCE_WORDS
    ) {
      sentences.push(current);
      current = [];
    }
  });
  if (current.length) sentences.push(current);
  return sentences;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One word as written: names from the roster, "I" and its contractions. */
function spell(word: string, names: Map<string, string>): string {
  if (word === 'i' || /^i'(m|ll|ve|d)$/.test(word)) return capitalise(word);
  const possessive = /^(.+)'s$/.exec(word);
  const base = possessive ? possessive[1]! : word;
  const name = names.get(base);
  if (name) return possessive ? `${name}'s` : name;
  if (CALENDAR.has(base)) return capitalise(word);
  return word;
}

export function formatLine(input: LineInput): FormattedLine {
  const names = rosterSpellings(input.names ?? []);
  const sentences = sentencesOf(input);
  if (sentences.length === 0) return { text: '', continues: false };
  const cut = input.endedBy === 'length';
  const out = sentences.map((sentence, s) => {
    const first = sentence[0]!.toLowerCase();
    const words = sentence.map((w) => spell(w, names));
    // The first sentence of a line that goes on with the last one keeps its lower case.
    const opensSentence = !(s === 0 && input.continues);
    if (opensSentence) words[0] = capitalise(words[0]!);
    const last = s === sentences.length - 1;
    const mark = last && cut ? '…' : opensSentence && QUESTION_OPENERS.has(first) ? '?' : '.';
    return words.join(' ') + mark;
  });
  return { text: out.join(' '), continues: cut };
}
