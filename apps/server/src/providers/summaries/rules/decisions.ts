import type { SummaryPoint } from '../types.js';
import { words } from './actions.js';
import {
  closedWithThen,
  offerAgreed,
  optionChosen,
  pointsBack,
  proposalAgreed,
  putOffToNamedTime,
  voteResult,
  type TurnDecision,
} from './choices.js';
import { confirmedDecision } from './confirmations.js';
import { deferredToNamedTime, planTakenUp, ruledOut } from './settled.js';
import { contentLemmas, type Sentence } from './nlp.js';
import {
  AGREED_PLAN,
  ASKS_TO_SPEAK,
  ASSENT_CHECK,
  ASSENT_ONLY,
  BARE_AGREE,
  BARE_APPROVAL,
  CHANGE_OF_MIND,
  CONFIRMS,
  DELIVERY,
  AGREED_ALONE,
  EXPLICIT,
  FILLER,
  IT_IS,
  LEAD,
  LETS,
  NOT_NOW,
  NO_THING,
  NOT_AGREED_THING,
  PAST,
  PROCEDURAL,
  PUT_OFF,
  recalled,
  REVERSAL,
  RULING,
  WE_ARE_DOING,
  WE_ARE_NOT,
  WE_WILL,
} from './decision-phrases.js';

/**
 * Decisions: a choice made or confirmed in the meeting. Explicit markers ("we agreed…", "it's
 * decided", "we'll go with…", "motion carries", "from now on…") count wherever they are;
 * "let's…" and "we'll…" count unless they run the meeting itself ("let's do the usual round",
 * "let's wrap up") or only announce the speaker's side's own work to the other side.
 */
export function findDecisions(sentences: Sentence[], actionSentences: ReadonlySet<Sentence>): SummaryPoint[] {
  const found: Array<{ text: string; line: number; lineId: string; also?: string[]; alsoLines?: number[] }> =
    [];
  const add = (d: TurnDecision) =>
    found.push({
      text: d.text,
      line: d.at[0]!.line,
      lineId: d.at[0]!.lineId,
      also: d.at.map((a) => a.lineId),
      alsoLines: d.at.map((a) => a.line),
    });
  sentences.forEach((s, i) => {
    const lower = s.lower.trim();
    // "Let's not decide it today … we'll decide at the board on the 22nd": put off to a named time.
    const putOff = putOffToNamedTime(sentences, i) ?? deferredToNamedTime(sentences, i);
    if (putOff) {
      add(putOff);
      return;
    }
    // "We take back the decision from last month: …" names the past only to undo it.
    if (
      lower.endsWith('?') ||
      ((PAST.test(lower) || recalled(lower)) && !REVERSAL.test(lower)) ||
      NOT_NOW.test(lower)
    )
      return;
    const bare = lower.replace(LEAD, '');
    let b = i - 1;
    while (b > 0 && FILLER.test(sentences[b]!.lower.trim()) && sentences[b]!.speaker === s.speaker) b -= 1;
    const before = sentences[b];
    if (CONFIRMS.test(bare) && before && !before.lower.trim().endsWith('?') && s.line - before.line <= 1) {
      found.push({ text: said(before, ''), line: before.line, lineId: before.lineId });
      found.push({ text: said(before, ''), line: s.line, lineId: s.lineId });
      return;
    }
    let rest: string | null = null;
    // "Scratch that, the hall on Friday." (or "Scratch that." and the new plan next).
    const change = CHANGE_OF_MIND.exec(lower);
    const changed = sentences[i - 1]?.line === s.line && CHANGE_OF_MIND.exec(sentences[i - 1]!.lower.trim());
    if (!actionSentences.has(s)) {
      if (change && change[1]!.length >= 6) rest = change[1]!;
      else if (changed && changed[1] === '' && contentLemmas(s.tokens).length >= 2) rest = bare;
    }
    const ruling = rest === null ? RULING.exec(bare) : null;
    if (ruling) {
      const next = sentences[i + 1];
      if (ruling[1]!.trim().length >= 12) rest = ruling[1]!;
      else if (next && next.line === s.line && !next.lower.trim().endsWith('?')) {
        found.push({ text: said(next, ''), line: next.line, lineId: next.lineId });
        return;
      }
    }
    // "Agreed. Eagle Bowl stays closed today, and we reassess it on Sunday.": whoever says
    // "Agreed." goes on to say what is agreed, in the same turn.
    const prev = sentences[i - 1];
    if (
      rest === null &&
      prev?.line === s.line &&
      AGREED_ALONE.test(prev.lower.trim()) &&
      !NOT_AGREED_THING.test(lower) &&
      !actionSentences.has(s) &&
      contentLemmas(s.tokens).length >= 3
    )
      rest = bare;
    const itIs = IT_IS.exec(bare);
    if (rest === null && itIs && nounPhrase(s, itIs[1]!)) rest = bare;
    for (const pattern of rest === null ? EXPLICIT : []) {
      const m = pattern.exec(bare);
      if (m) {
        rest = m[1] ?? '';
        break;
      }
    }
    // "Agreed." alone, by someone else, right after a plan said as a statement ("We freeze it
    // where it is."): the plan is confirmed, and the plan's sentence is the decision.
    if (rest === null && assentedPlan(sentences, i, actionSentences)) {
      const p = sentences[i - 1]!;
      found.push({ text: said(p, ''), line: p.line, lineId: p.lineId });
      return;
    }
    // A sentence that gave an action item is a decision only when it says so explicitly.
    if (rest === null && !actionSentences.has(s)) {
      const turn =
        voteResult(sentences, i) ??
        optionChosen(sentences, i) ??
        pointsBack(sentences, i) ??
        closedWithThen(sentences, i) ??
        offerAgreed(sentences, i, actionSentences) ??
        proposalAgreed(sentences, i, actionSentences) ??
        ruledOut(sentences, i);
      if (turn) {
        add(turn);
        return;
      }
      const lets = LETS.exec(bare);
      const will = WE_WILL.exec(bare);
      const approval = BARE_APPROVAL.test(lower);
      if (approval || (lets && BARE_AGREE.test(lets[1]!))) {
        const proposal = proposalBefore(sentences, i);
        // "Let's go bed by bed." – "Go for it.": agreeing how to run the meeting decides nothing.
        const proposed = proposal && LETS.exec(proposal.lower.replace(LEAD, ''));
        if (proposal && !(proposed && PROCEDURAL.test(proposed[1]!)) && !ASKS_TO_SPEAK.test(proposal.lower)) {
          found.push({
            text: `${said(s, lets?.[1] ?? '')} (${said(proposal, '')})`,
            line: s.line,
            lineId: s.lineId,
          });
        }
        return;
      }
      const agreed = AGREED_PLAN.exec(lower);
      if (lets && !PROCEDURAL.test(lets[1]!) && !PUT_OFF.test(lets[1]!)) rest = lets[1]!;
      else if (will && !thin(will[1]!) && !DELIVERY.test(will[1]!)) rest = bare.slice(will.index);
      else if (WE_ARE_NOT.test(bare)) rest = bare;
      else if (WE_ARE_DOING.test(lower)) rest = WE_ARE_DOING.exec(lower)![1]!;
      else if (putToAssent(sentences, i)) rest = bare;
      else if (agreed && statement(agreed[1]!, s)) rest = agreed[1]!;
      // The "no" is the decision: "Then no long lease for now." keeps it.
      else if (NO_THING.test(lower))
        rest = lower.replace(
          /^(?:(?:and|so|then|okay|ok|alright|right|yes|yeah|well|fine|agreed)[,.!]?\s+)*/,
          '',
        );
      else if (confirmedDecision(sentences, i)) rest = bare;
      else {
        const taken = planTakenUp(sentences, i, actionSentences);
        if (taken) {
          add(taken);
          return;
        }
      }
    }
    if (rest === null) return;
    found.push({ text: said(s, rest), line: s.line, lineId: s.lineId });
  });
  // The same decision restated on the next line ("Agreed, we'll…") is one decision, and so is
  // one that only points at its neighbour ("Let's not do that again." – "No band this year.").
  // One turn makes one decision, however many sentences it takes to say it; a choice confirmed
  // after someone's assent ("Let's send the cache one." – "Happy with that." – "Cache talk it
  // is.") is one decision too.
  const merged: Array<{ text: string; lines: number[]; ids: string[] }> = [];
  for (const f of found) {
    const last = merged[merged.length - 1];
    const lastLine = last && Math.max(...last.lines);
    if (
      last &&
      (f.line === lastLine ||
        (f.line - lastLine! <= 1 &&
          (last.text === f.text || overlap(last.text, f.text) >= 0.5 || thin(last.text) || thin(f.text))) ||
        (f.line - lastLine! === 2 && overlap(last.text, f.text) >= 0.5))
    ) {
      if (thin(last.text) && !thin(f.text)) last.text = f.text;
      last.lines.push(f.line, ...(f.alsoLines ?? []));
      for (const id of [f.lineId, ...(f.also ?? [])]) if (!last.ids.includes(id)) last.ids.push(id);
    } else
      merged.push({
        text: f.text,
        lines: [f.line, ...(f.alsoLines ?? [])],
        ids: [...new Set([f.lineId, ...(f.also ?? [])])],
      });
  }
  return merged.map((m) => ({ text: m.text, sources: sortIds(m.ids) }));
}

/**
 * Sentence i is a whole turn of bare assent, and the sentence before it ends another speaker's
 * turn with a plan said as a present-tense statement ("We freeze it where it is.", "Nobody
 * deploys on Fridays."): not a question, a view, the past, or an action item someone took.
 */
function assentedPlan(sentences: Sentence[], i: number, actionSentences: ReadonlySet<Sentence>): boolean {
  const s = sentences[i]!;
  const p = sentences[i - 1];
  const next = sentences[i + 1];
  if (!p || p.speaker === s.speaker || s.line - p.line !== 1) return false;
  if (!ASSENT_ONLY.test(s.lower.trim()) || (next && next.line === s.line)) return false;
  const plan = p.lower.trim().replace(LEAD, '');
  return (
    !plan.endsWith('?') &&
    !PAST.test(plan) &&
    !actionSentences.has(p) &&
    PLAN_STATEMENT.test(plan) &&
    plan.split(/\s+/).length >= 3 &&
    contentLemmas(p.tokens).length >= 1
  );
}

/** The speaker's next sentence, in the same turn, asks the room to assent to this statement. */
function putToAssent(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const next = sentences[i + 1];
  return (
    !!next &&
    next.line === s.line &&
    ASSENT_CHECK.test(next.lower.trim()) &&
    [...words(s.lower)].length >= 3 &&
    !s.lower.trim().endsWith('?')
  );
}

/** "X it is": X has no pronoun, auxiliary or clause word, so it names a choice. */
function nounPhrase(s: Sentence, phrase: string): boolean {
  const words = phrase.split(/\s+/);
  const tokens = s.tokens.filter((t) => words.includes(t.lower));
  return !tokens.some(
    (t) =>
      t.pos === 'PRON' ||
      t.pos === 'AUX' ||
      t.pos === 'SCONJ' ||
      /^(?:what|which|who|how|where|why|when)$/.test(t.lower),
  );
}

/**
 * A rule or plan said as a statement ("nobody touches the swamp until …", "we keep the old
 * supplier"), not a view ("a day is too long", "building it in memory won't scale").
 */
const PLAN_STATEMENT =
  /^(?:we|nobody|no one|everyone|everybody|each of us|all of us)\s+(?!(?:are|were|is|was|have|had|need|should|could|would|might|must|can|can't|think|know|feel|agree|did|do|don't|didn't|all|both|just|really|probably)\b)[a-z']+/;
/** A view: "a day is too long", "that won't scale", "it'd be better". */
const VIEW = /\b(?:is|are|was|were|won't|can't|wouldn't|would|'d be|seems?|looks?|feels?|sounds?)\b/;
function statement(text: string, s: Sentence): boolean {
  const t = text.trim();
  if (t.endsWith('?') || PAST.test(t)) return false;
  return PLAN_STATEMENT.test(t) || (!VIEW.test(t) && !copula(s) && t.split(/\s+/).length >= 3);
}

/**
 * "the roof's a disgrace", "the building's not on the table", "senior's right for now": a noun
 * with "'s" for "is" (wink tags it as the possessive's particle). A possessive goes on to a noun
 * and its verb ("Rosa's plan works"); "is" goes on to a determiner, "not", an adverb, an
 * adjective or a preposition, or to a noun that ends the clause.
 */
function copula(s: Sentence): boolean {
  return s.tokens.some((t, k) => {
    if (t.lower !== "'s" || t.pos === 'AUX') return t.pos === 'AUX' && t.lemma === 'be';
    const next = s.tokens[k + 1];
    const after = s.tokens[k + 2];
    if (!next) return false;
    if (/^(?:DET|PART|ADV|ADJ|ADP|NUM)$/.test(next.pos))
      return !(next.pos === 'ADJ' && after?.pos === 'NOUN');
    return next.pos === 'NOUN' && (!after || !/^(?:VERB|NOUN|AUX|PROPN)$/.test(after.pos));
  });
}

/** Line ids in transcript order (a decision may point back at the proposal it takes up). */
function sortIds(ids: string[]): string[] {
  return ids.every((id) => /^\d+$/.test(id)) ? [...ids].sort((a, b) => Number(a) - Number(b)) : ids;
}

/** Few content words once pronouns are set aside: "do that again", "keep it". */
function thin(text: string): boolean {
  return [...words(text)].filter((w) => !/^(?:again|then|now|let's|not|don't)$/.test(w)).length < 2;
}

/**
 * What "let's do it" agrees to: the line just before, by someone else, if it proposes something
 * (a question or a statement with some content). At the start of a meeting there is none.
 */
function proposalBefore(sentences: Sentence[], i: number): Sentence | null {
  const s = sentences[i]!;
  for (let j = i - 1; j >= 0; j -= 1) {
    const p = sentences[j]!;
    if (s.line - p.line > 1) return null;
    if (p.speaker !== s.speaker && contentLemmas(p.tokens).length >= 3) return p;
  }
  return null;
}

/** The decision in the speaker's words: the part after the marker, or the whole sentence. */
function said(s: Sentence, rest: string): string {
  const part = rest.trim().length >= 12 ? rest.trim() : s.lower.replace(LEAD, '').trim();
  const at = s.lower.lastIndexOf(part);
  const text = (at >= 0 ? s.text.slice(at, at + part.length) : s.text).replace(/[.!,;:\s]+$/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function overlap(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return shared / Math.min(wa.size, wb.size);
}
