import type { ActionItem } from '../types.js';
import { dueDate, lastDateIn } from './dates.js';
import type { Sentence } from './nlp.js';
import { firstAfter, lastBefore, positionOf, sentencesOfLine } from './lookup.js';
import type { People } from './people.js';
import { anaphoric, type Cue, cue, imperativeTask } from './phrases.js';

/** An action item while the transcript is read: the lines it came from grow as people answer. */
interface Draft {
  task: string;
  owner: string | null;
  origin: 'commit' | 'request';
  /** The line of the cue that made it. */
  line: number;
  lines: Set<number>;
  /** Sentences to read a due date from, most telling first: the cue, then the answers. */
  said: Sentence[];
  /** The "someone should…" it took, read last for a date. */
  opened?: Sentence;
  anaphoric: boolean;
}

interface Open {
  task: string;
  sentence: Sentence;
  taken: boolean;
}

const HOLD_ON =
  /^(?:give me (?:a|one|two) (?:sec|second|moment|minute|tick)|(?:one|just a|half a) (?:sec|second|moment|minute)\b|hang on\b|bear with me\b)/;
const WHEN = /\b(?:when|how long|by when|eta|deadline|what date|which day)\b/;

/** How far an answer may be from the request or open task it answers, in lines. */
const ANSWER_WINDOW = 2;
const OPEN_WINDOW = 3;

/**
 * Action items with owners, due dates and the lines they came from. Context resolves what one
 * sentence cannot: "Someone should clean up the snapshots" + "Rosa, can you handle that?" +
 * "Yes, I'll clear them out this morning" is one item, Rosa's, due the meeting day.
 */
export function findActionItems(
  sentences: Sentence[],
  people: People,
  meetingDate: string,
): { items: ActionItem[]; cued: Set<Sentence> } {
  const drafts: Draft[] = [];
  const opens: Open[] = [];
  const cues = sentences.map((s) =>
    cue(s, people, addressedIn(sentences, s, people) ?? previousSpeaker(sentences, s)),
  );

  // "I'll just swing the telescope over. Give me a second.": done on the call, while they wait.
  cues.forEach((c, i) => {
    const next = sentences[i + 1];
    if (c?.kind === 'commit' && next?.line === sentences[i]!.line && HOLD_ON.test(next.lower)) cues[i] = null;
  });

  sentences.forEach((s, i) => {
    const c = cues[i];
    if (!c) return;
    if (c.kind === 'open') {
      opens.push({ task: c.task, sentence: s, taken: false });
      return;
    }
    if (c.kind === 'offer') {
      if (acceptedOffer(sentences, i)) takeOpen(opens, s, fromCue({ ...c, kind: 'commit' }, s), drafts);
      return;
    }
    if (c.kind === 'accept') {
      const asked = lastRequestTo(drafts, c.owner, s.line);
      const told = asked ? null : imperativeBefore(sentences, i, people);
      if (asked) join(asked, s);
      else if (told) {
        drafts.push({
          task: told.task,
          owner: c.owner,
          origin: 'request',
          line: told.sentence.line,
          lines: new Set([told.sentence.line, s.line]),
          // The answer's own "by end of day" first: a day in the request may name the event.
          said: [s, told.sentence],
          anaphoric: anaphoric(told.task),
        });
      } else
        takeOpen(
          opens,
          s,
          {
            task: c.self && spokeBefore(sentences, i) ? 'Do it' : '',
            owner: c.owner,
            origin: 'commit',
            line: s.line,
            lines: new Set([s.line]),
            said: [s],
            anaphoric: true,
          },
          drafts,
        );
      return;
    }
    // A commitment right after a request to the same person is the answer to it.
    if (c.kind === 'commit') {
      const asked = lastRequestTo(drafts, c.owner, s.line);
      if (asked) {
        join(asked, s);
        if (asked.anaphoric && !anaphoric(c.task)) Object.assign(asked, { task: c.task, anaphoric: false });
        return;
      }
    }
    const draft = fromCue(c, s);
    takeOpen(opens, s, draft, drafts);
    // "Reto, Chiara, I need your lists…": the same task for each of the others asked.
    if (c.kind === 'request')
      for (const owner of c.also ?? [])
        drafts.push({ ...draft, owner, lines: new Set(draft.lines), said: [...draft.said] });
  });

  const items = merge(
    drafts.filter((d) => d.task !== ''),
    sentences,
  );
  const cued = new Set(sentences.filter((_, i) => cues[i]?.kind === 'commit' || cues[i]?.kind === 'request'));
  return { items: items.map((d) => toItem(d, sentences, meetingDate)), cued };
}

function fromCue(c: Extract<Cue, { kind: 'commit' | 'request' }>, s: Sentence): Draft {
  return {
    task: c.task,
    owner: c.owner,
    origin: c.kind,
    line: s.line,
    lines: new Set([s.line]),
    said: [s],
    // "I'll ask." names too little to stand alone: like "do it", it takes the task said before.
    anaphoric: anaphoric(c.task) || thinTask(c.task),
  };
}

/**
 * An item said shortly after an open task ("someone should…") takes it: an item that only
 * points at it ("I can look at it") takes its words; one about the same thing takes its line.
 */
function takeOpen(opens: Open[], s: Sentence, draft: Draft, drafts: Draft[]): void {
  const open = [...opens]
    .reverse()
    .find((o) => !o.taken && s.line - o.sentence.line <= OPEN_WINDOW && o.sentence !== s);
  if (open && (draft.anaphoric || sharesWords(open.task, draft.task))) {
    open.taken = true;
    draft.lines.add(open.sentence.line);
    draft.opened = open.sentence;
    if (draft.anaphoric) Object.assign(draft, { task: open.task, anaphoric: false });
  }
  drafts.push(draft);
}

/** "I could ask them…" – "Yes, please.": the offer is taken up by the next speaker. */
const TAKEN_UP =
  /^(?:yes|yeah|yep|please|sure|sounds good|go for it|do it|that would be|that'd be|perfect|great)\b/;
function acceptedOffer(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const next = firstAfter(sentences, i, (n) => n.line !== s.line);
  return !!next && next.line - s.line === 1 && next.speaker !== s.speaker && TAKEN_UP.test(next.lower);
}

/** Someone else spoke on the line just before (what a bare "I'll do it." is about). */
function spokeBefore(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const p = lastBefore(sentences, i, (b) => b.line !== s.line);
  return !!p && p.speaker !== s.speaker && s.line - p.line === 1;
}

/** The bare imperative by someone else on the line just before an accept ("Will do."). */
function imperativeBefore(
  sentences: Sentence[],
  i: number,
  people: People,
): { task: string; sentence: Sentence } | null {
  const s = sentences[i]!;
  for (let j = i - 1; j >= 0; j -= 1) {
    const p = sentences[j]!;
    if (p.line === s.line) continue;
    if (s.line - p.line > 1 || p.speaker === s.speaker) return null;
    const task = imperativeTask(p, people);
    if (task) return { task, sentence: p };
  }
  return null;
}

function lastRequestTo(drafts: Draft[], owner: string, line: number): Draft | undefined {
  for (let i = drafts.length - 1; i >= 0; i -= 1) {
    const d = drafts[i]!;
    if (d.origin === 'request' && d.owner === owner && line > d.line && line - d.line <= ANSWER_WINDOW)
      return d;
  }
  return undefined;
}

function join(draft: Draft, s: Sentence): void {
  draft.lines.add(s.line);
  draft.said.push(s);
}

/**
 * Items of one owner on neighbouring lines about the same thing are one item. One that only
 * points ("escalate it") belongs to the earlier item unless someone else spoke in between: then
 * "it" is what they brought up.
 */
function merge(drafts: Draft[], sentences: Sentence[]): Draft[] {
  const kept: Draft[] = [];
  // Only an item of the same owner can take another in: looked for among that owner's items.
  const byOwner = new Map<string, Draft[]>();
  const interrupted = (k: Draft, d: Draft) => {
    for (let line = k.line + 1; line < d.line; line += 1)
      for (const s of sentencesOfLine(sentences, line))
        if (s.speaker !== d.owner && s.speaker !== k.owner && s.tokens.filter((t) => t.word).length >= 4)
          return true;
    return false;
  };
  for (const d of drafts) {
    const same = (d.owner === null ? [] : (byOwner.get(d.owner) ?? [])).find(
      (k) =>
        Math.abs(k.line - d.line) <= ANSWER_WINDOW &&
        (sharesWords(k.task, d.task, 0.5) ||
          (d.anaphoric && !interrupted(k, d)) ||
          (k.line === d.line && k.origin === 'commit' && d.origin === 'commit' && vague(d.task))),
    );
    if (same) {
      for (const l of d.lines) same.lines.add(l);
      same.said.push(...d.said);
    } else {
      kept.push(d);
      if (d.owner !== null) {
        const mine = byOwner.get(d.owner);
        if (mine) mine.push(d);
        else byOwner.set(d.owner, [d]);
      }
    }
  }
  return kept;
}

/**
 * "I'll chase them. I'll ring tomorrow.", "I'll come back with a plan. I'll bring something to
 * the July meeting.": a second commitment in the same turn that names nothing new (something,
 * it, or only a time) says more about the first.
 */
const TIME_WORDS =
  /^(?:today|tonight|tomorrow|morning|afternoon|evening|week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday|first|thing|next|later|soon|meeting)$/;
function vague(task: string): boolean {
  if (/\b(?:something|anything)\b/i.test(task)) return true;
  return [...words(task)].filter((w) => !TIME_WORDS.test(w)).length < 2;
}

function toItem(d: Draft, sentences: Sentence[], meetingDate: string): ActionItem {
  let due: string | null = null;
  for (const s of d.opened ? [...d.said, d.opened] : d.said) {
    due = /\b(?:by|before|until) then\b/.test(s.lower)
      ? lastDateIn(
          saidJustBefore(sentences, s).map((p) => p.text),
          meetingDate,
        )
      : (dueDate(s.text, meetingDate, { task: true }) ?? datePutAfter(sentences, s, meetingDate));
    if (due) break;
  }
  // "Let me know by Sunday?" – "Yes, I'll text you.": a yes answers the line before, and its date.
  const first = d.said[0]!;
  const asked = answered(sentences, first);
  if (asked && (!due || thinTask(d.task))) {
    due ??= dueDate(asked.text, meetingDate, { task: true });
    d.lines.add(asked.line);
  }
  // "I can build that." – "When could you have it?" – "End of next week.": the owner's answer to
  // a question about when (any later date the owner says may be about something else).
  if (!due && d.owner) {
    const last = Math.max(...d.lines);
    let asked = false;
    for (const s of sentences) {
      if (s.line <= last || s.line > last + ANSWER_WINDOW) continue;
      if (s.speaker !== d.owner) {
        asked ||= WHEN.test(s.lower); // no "?" to require: speech-to-text writes none
        continue;
      }
      if (!asked) continue;
      const answer = dueDate(s.text, meetingDate);
      if (answer) {
        due = answer;
        d.lines.add(s.line);
        break;
      }
    }
  }
  // "Build that" means little alone: say what "that" was (the sentence before the cue).
  let text = d.task;
  if (asked && thinTask(d.task)) text = `${d.task} (${asked.text.replace(/[.!\s]+$/, '')})`;
  else if (d.anaphoric) {
    // The nearest sentence before it that says something ("Fair." does not).
    const at = positionOf(sentences, d.said[0]!);
    const before = lastBefore(sentences, at, (p) => p.tokens.filter((t) => t.word).length >= 4);
    if (before && d.line - before.line <= 1 && !before.lower.trim().endsWith('?')) {
      const context = before.text.replace(/[.!\s]+$/, '');
      text = `${d.task} (${context.length > 120 ? `${context.slice(0, 117)}…` : context})`;
    }
  }
  const lineIds = [...d.lines].sort((a, b) => a - b).map((l) => sentencesOfLine(sentences, l)[0]!.lineId);
  return { text, owner: d.owner, due, sources: [...new Set(lineIds)] };
}

/** The sentences before `s` on its line and the ANSWER_WINDOW lines before it, in order. */
function saidJustBefore(sentences: Sentence[], s: Sentence): Sentence[] {
  const end = positionOf(sentences, s);
  let start = end;
  while (start > 0 && sentences[start - 1]!.line >= s.line - ANSWER_WINDOW) start -= 1;
  return sentences.slice(start, end);
}

/**
 * "…before the next release? That's the 4th.", "That's mine. Give me till Wednesday.": the speaker
 * names the date right after.
 */
function datePutAfter(sentences: Sentence[], s: Sentence, meetingDate: string): string | null {
  const next = sentences[positionOf(sentences, s) + 1];
  if (
    !next ||
    next.line !== s.line ||
    !/^(?:that's|that is|which is|it's|so that's|give me (?:till|until|to)|i need (?:till|until))\b/.test(
      next.lower,
    )
  )
    return null;
  return dueDate(next.text, meetingDate, { task: true });
}

/** The other speaker's line that a commitment opening with "yes"/"sure" answers, if any. */
function answered(sentences: Sentence[], s: Sentence): Sentence | null {
  const at = positionOf(sentences, s);
  if (at <= 0 || sentences[at - 1]!.line === s.line) return null;
  if (!/^(?:yes|yeah|yep|sure|okay|ok|of course|absolutely|fine)\b/.test(s.lower)) return null;
  const before = sentences[at - 1]!;
  // Only a question or a bare imperative asks for something ("the result came at six" does not).
  const asks = before.lower.trim().endsWith('?') || imperativeTask(before) !== null;
  return asks && before.speaker !== s.speaker && s.line - before.line === 1 ? before : null;
}

/** "Text you", "Ask": fewer than two content words, so the item needs what it answered. */
function thinTask(task: string): boolean {
  return words(task).size < 2;
}

/**
 * "Takeshi, you wrote the dispatcher. Can you measure what it costs?": the person named at the
 * start of an earlier sentence of the same turn is the one asked, not whoever spoke last.
 */
function addressedIn(sentences: Sentence[], s: Sentence, people: People): string | null {
  for (let i = positionOf(sentences, s) - 1; i >= 0; i -= 1) {
    const p = sentences[i]!;
    if (p.line !== s.line) return null;
    const named = /^(?:(?:so|and|okay|ok|right),?\s+)?([a-z][\w'-]*),\s/.exec(p.lower);
    const who = named ? people.find(named[1]!) : null;
    if (who && who !== s.speaker) return who;
  }
  return null;
}

function previousSpeaker(sentences: Sentence[], s: Sentence): string | null {
  for (let i = positionOf(sentences, s) - 1; i >= 0; i -= 1) {
    const p = sentences[i]!;
    if (p.speaker !== s.speaker) return p.speaker;
  }
  return null;
}

const STOP = new Set(
  'the a an and or but to of in on at for with by from it that this them those is are be will can could would should you your our we i me my his her their its as if so then than also just up out about into over after before when what which who how all any some one two'.split(
    ' ',
  ),
);

export function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .map((w) => w.replace(/'s$/, ''))
      .filter((w) => w.length >= 3 && !STOP.has(w)),
  );
}

/** Share of the smaller word set found in the other (a shared topic), at least `min`. */
function sharesWords(a: string, b: string, min = 0.34): boolean {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return false;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / Math.min(wa.size, wb.size) >= min;
}
