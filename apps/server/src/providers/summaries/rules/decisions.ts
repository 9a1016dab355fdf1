import type { SummaryPoint } from '../types.js';
import { words } from './actions.js';
import { confirmedDecision } from './confirmations.js';
import { contentLemmas, type Sentence } from './nlp.js';

/**
 * Decisions: a choice made or confirmed in the meeting. Explicit markers ("we agreed…", "it's
 * decided", "we'll go with…", "motion carries", "from now on…") count wherever they are;
 * "let's…" and "we'll…" count unless they run the meeting itself ("let's do the usual round",
 * "let's wrap up") or only announce the speaker's side's own work to the other side.
 */
const LEAD =
  /^(?:(?:and|so|then|okay|ok|alright|all right|right|yes|no|good|great|fine|agreed|perfect|well)[,.!]?\s+)*/;
const PAST =
  /\b(?:ago|last (?:year|month|week|time|quarter)|back then|in the past|previously|(?:decided|agreed) (?:back )?in (?:january|february|march|april|may|june|july|august|september|october|november|december|the spring|the summer|the autumn|the fall|the winter))\b/;

const EXPLICIT: RegExp[] = [
  /\bwe (?:all )?(?:have |'ve )?(?:agreed|decided)(?: then)?(?: that| to| on)?[:,]?\s*(.*)$/,
  /\bwe(?:'re| are) (?:all )?agreed(?: then)?(?: that| to| on)?[:,]?\s*(.*)$/,
  // "So the answer is no on localisation", "so that's a no on our own expert": a choice not to.
  /\b(?:the answer is|that's|that is|it's|it is) a? ?(?:no|yes|firm no|hard no) (?:on|to|for)\b\s*(.*)$/,
  // A vote's result: "Three for, one against, so that passes."
  /^(.*\b(?:(?:so )?(?:that|it|the motion|the proposal) (?:passes|carries|is carried|is adopted)(?! over| on\b| forward| through)|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|all|none) (?:for|in favou?r),? (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|none|nobody|no one) against)\b.*)$/,
  // Undoing or deferring: "we take back the decision from last month", "we postpone X to …".
  /\bwe (?:take back|reverse|overturn|undo) (?:the |that |our )?decision\b[^:]*?[:,]?\s*(.*)$/,
  /\b(we (?:postpone|defer|push back|put off) .+ (?:to|until|till) .+)$/,
  /^(?:then |so )?((?:[\w'-]+ ){0,4}[\w'-]+ (?:holds|waits) until .+)$/,
  // "The band's back in, then.", "walk-ins are back on Saturdays"
  /^(?:then |so )?((?:[\w'-]+ ){0,4}[\w'-]+(?:'s| is| are) back (?:in|on)\b.*)$/,
  // "Then home visits is no, for this winter."
  /^(?:then |so )?((?:[\w'-]+ ){0,3}[\w'-]+ (?:is|are) (?:a )?no\b.*)$/,
  // "The answer is yes." (the question before it is what was decided)
  /^(?:so |then )?the answer is (?:yes|no)[.!]?$/,
  // "Then the advice stands, no restructure before mediation": an earlier call confirmed.
  /\bthe (?:advice|decision|plan|rule|policy|position|recommendation) stands\b[,:;]?\s*(.*)$/,
  /\b(?:it's|it is|that's|that is) (?:decided|agreed|settled|final)[:,.]?\s*(.*)$/,
  /\bthe decision is[:,]?\s*(?:that |to )?(.*)$/,
  /\bdecision:\s*(.*)$/,
  /\b(?:we'll|we will|we're going to|we are going to|let's|we) (go with .+)$/,
  /\bwe're (going with .+)$/,
  /\b(?:from now on|going forward|moving forward|from today on),?\s*(.+)$/,
  // "From today, any jack left in a walkway gets tagged": a new rule, said first.
  /^(?:from (?:today|tomorrow|monday)|as of (?:today|now|tomorrow|monday)),\s*(.{12,})$/,
  /\b(?:so |okay,? )?the plan is(?: to)?[:,]?\s*(.+)$/,
  /^(.*\b(?:motion (?:carries|passes|is carried)|hearing no objections|without objection|(?:is|are) (?:hereby )?approved|we (?:hereby )?appoint|so resolved)\b.*)$/,
];

const REVERSAL = /\bwe (?:take back|reverse|overturn|undo) (?:the |that |our )?decision\b/;
/** "Flu day is the 13th, in the church hall. Agreed?": a plan put to the room for assent. */
const ASSENT_CHECK =
  /^(?:agreed|all agreed|everyone agreed|are we agreed|everyone (?:okay|ok|happy|good) with that|okay with everyone|yes|right|ok|okay)\?$/;
/** "so no need to pick now": a choice left for later. */
const NOT_NOW =
  /\bno need to (?:pick|decide|choose|settle|agree)\b|\bnot (?:decide|pick|choose) (?:now|today|yet)\b/;
const LETS = /\blet's (?:also |just |quickly |now )?(.+)$/;
/** "let's not pick a venue yet" puts a choice off; "let's not do the raffle this year" makes one. */
const PUT_OFF =
  /^(?:park (?:it|that|this)|table (?:it|that|this)|sleep on it|leave (?:it|that) (?:for now|there))|^not (?:(?:.*\b(?:yet|right now|for now|today)\b)|get ahead|rush|worry|panic|go down|get into|spend|dwell|waste|bother|overthink|forget)/;
/** "let's do this" names no choice of its own: the proposal just before it does, if any. */
const BARE_AGREE = /^(?:do|try|go for) (?:it|this|that)(?: then| now| again)?[.!]?$/;
/** "I want to say something about Saturdays." – "Go ahead.": leave to speak, not a decision. */
const ASKS_TO_SPEAK =
  /\b(?:(?:i|can i|could i|may i|i'd like to|i want to|let me) (?:just )?(?:say|ask|add|mention|raise|bring up|speak|share|jump in)|quick question|something about)\b/;
/** The same said on its own by whoever decides: "Do it.", "Go ahead.", "Approved." */
const BARE_APPROVAL =
  /^(?:(?:okay|ok|fine|right|yes|yeah|alright)[,.!]?\s+)*(?:do it|go ahead(?: with it)?|go for it|approved|you have my approval|you've got my approval)(?: then)?[.!]?$/;
const PROCEDURAL =
  /^(?:go\b|make a start|put (?:it|this|that) to (?:a|the) vote|vote\b|leave it (?:there|at that)|stop there|call it (?:a day|there)|start|begin|look|wrap|move on|get (?:started|going)|recap|take a (?:break|look|step back)|hear|see|talk|discuss|throw|capture|meet|brainstorm|continue|keep going|jump|kick|review|walk|circle back|focus|dive|switch|hop|pull up|think|do (?:the|a|our|some)? ?(?:usual |quick |small |short |final |last )*(?:round|question|intro|introductions|update|updates|demo|recap|check-in|retro)s?\b)/;
/** "We're not naming him.": a choice not to, said in the present. */
const WE_ARE_NOT =
  /(?<!\b(?:if|unless|because|when|whether|once)\s)\bwe(?:'re| are) not (?!going\b|sure\b|there\b|ready\b|expecting\b|getting\b|seeing\b|talking\b|doing (?:well|great|badly)\b|looking (?:at|for)\b)([a-z]+ing\b.*)$/;
const WE_WILL =
  // Not in a clause that only sets a condition ("which we won't have unless the grant comes").
  /(?<!\b(?:which|if|unless|until|whether|because|once|when)\s)\b(?:we'll|we will|we're going to|we are going to|we won't|we will not|we're not going to|we are not going to) (?!need|make it|manage|be able|get to|have time|have the|have to|see\b|get back|keep\b|be\b|try|talk|discuss|know|figure|find out|work (?:it |that |this )?out|have (?:a|another) (?:discussion|chat|conversation|look|break|think|go|quick)|want|probably|think|hear|wait|look into|look at|send you|email you|call you|follow up)(.+)$/;

/**
 * "We'll have a release candidate on the 22nd": a side promising a deliverable by a date is a
 * commitment (an action item when someone owns it), not a choice the meeting makes.
 */
const DELIVERY =
  /^have (?!(?:a|an|the|our|two|three) (?:party|meeting|session|vote|launch|dinner|lunch)\b).*\b(?:by|on|before|for) (?:the \d|\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|the end of|end of|january|february|march|april|may|june|july|august|september|october|november|december)/;

/** A turn that only assents: "Agreed.", "Fine by me.", "Works for me.", "Sounds good." */
const ASSENT_ONLY =
  /^(?:(?:yes|yeah|okay|ok|right)[,.!]?\s+)?(?:agreed|fine by me|works for me|that works(?: for me)?|sounds good(?: to me)?)[.!]*$/;

/**
 * "X it is" closes a choice between options ("Okay, the blue one it is, and we print fifty."):
 * X is a short noun phrase, never a clause ("wait until we know what it is").
 */
const IT_IS = /(?:^|[,;]\s*)((?:[\w'.-]+ ){0,4}[\w'.-]+) it is\b(?:[,;]\s*.*|[.!])?$/;
/** "No raffle this year.", "Yeah, no speaker fee for this event.": a choice not to do something. */
const NO_THING = new RegExp(
  String.raw`^(?:(?:and|so|then|okay|ok|alright|right|yes|yeah|well|fine|agreed)[,.!]?\s+)*no,? ` +
    String.raw`(?!problem|worries|worry|idea|way|rush|need|one\b|doubt|thanks|pressure|offen[cs]e|kidding|comment|change|updates?|news|blockers?|luck|clue|matter|big deal|questions?)` +
    String.raw`((?:[\w'-]+ ){0,4}[\w'-]+) (?:this time|this year|this round|this quarter|this sprint|this season|any ?more|from now on|going forward|for (?:this|the next|now)\b.*)[.!]?$`,
);

/**
 * "That's agreed with leadership.", "Final answer.", "That's the fallback.": confirms the sentence
 * before it, which is the decision.
 */
const CONFIRMS =
  /^(?:(?:that's|that is|it's|it is|this is) (?:decided|agreed|settled|final)\b|settled\b|final answer\b|(?:that's|that is) (?:the|our) (?:fallback|plan|decision|call|rule|deal)[.!]?$)/;
/** Said between a choice and its confirmation: "The lamb is … That's it. Final answer." */
const FILLER = /^(?:that's it|that's that|done|there|there we go|good|right|okay|ok)[.!]*$/;
/** "Agreed, nobody touches the swamp…": agreement that restates the plan as a statement. */
const AGREED_PLAN = /^(?:(?:okay|ok|yes|yeah|right|fine)[,.!]?\s+)?agreed[,.;:!]\s+(.+)$/;

export function findDecisions(sentences: Sentence[], actionSentences: ReadonlySet<Sentence>): SummaryPoint[] {
  const found: Array<{ text: string; line: number; lineId: string }> = [];
  sentences.forEach((s, i) => {
    const lower = s.lower.trim();
    // "We take back the decision from last month: …" names the past only to undo it.
    if (lower.endsWith('?') || (PAST.test(lower) && !REVERSAL.test(lower)) || NOT_NOW.test(lower)) return;
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
    const itIs = IT_IS.exec(bare);
    if (itIs && nounPhrase(s, itIs[1]!)) rest = bare;
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
      else if (putToAssent(sentences, i)) rest = bare;
      else if (agreed && statement(agreed[1]!)) rest = agreed[1]!;
      else if (NO_THING.test(lower)) rest = bare;
      else if (confirmedDecision(sentences, i)) rest = bare;
    }
    if (rest === null) return;
    found.push({ text: said(s, rest), line: s.line, lineId: s.lineId });
  });
  // The same decision restated on the next line ("Agreed, we'll…") is one decision, and so is
  // one that only points at its neighbour ("Let's not do that again." – "No band this year.").
  const merged: Array<{ text: string; lines: number[]; ids: string[] }> = [];
  for (const f of found) {
    const last = merged[merged.length - 1];
    if (
      last &&
      f.line - last.lines[last.lines.length - 1]! <= 1 &&
      (last.text === f.text || overlap(last.text, f.text) >= 0.5 || thin(last.text) || thin(f.text))
    ) {
      if (thin(last.text) && !thin(f.text)) last.text = f.text;
      last.lines.push(f.line);
      if (!last.ids.includes(f.lineId)) last.ids.push(f.lineId);
    } else merged.push({ text: f.text, lines: [f.line], ids: [f.lineId] });
  }
  return merged.map((m) => ({ text: m.text, sources: m.ids }));
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
function statement(text: string): boolean {
  const t = text.trim();
  if (t.endsWith('?') || PAST.test(t)) return false;
  return PLAN_STATEMENT.test(t) || (!VIEW.test(t) && t.split(/\s+/).length >= 3);
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
