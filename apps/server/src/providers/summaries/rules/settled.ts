import type { TurnDecision } from './choices.js';
import { PAST, recalled } from './decision-phrases.js';
import { contentLemmas, type Sentence, type Token } from './nlp.js';
import { sentencesOfLine } from './lookup.js';

/**
 * How groups settle a question over several turns without a decision word: someone proposes or
 * asks, and whoever closes the point says the plan back, opened by assent ("I like that. Google
 * in Q1, Outlook once the review clears."), or says it and is answered by assent ("Singles for
 * the principals, twins for the rest." – "Fine by me."); a thing ruled out ("That's not happening
 * this quarter.", "Should we…?" – "Not this year."); and a question sent to a named later time or
 * forum ("It goes to the manager's meeting on the 29th.", "we'll come back to it at the November
 * meeting"). Each returns the decision's words and the sentences it stands on, or null.
 */

/** How far back, in lines, the proposal the plan takes up may have been put. */
const TAKE_UP_WINDOW = 3;

/** A first sentence of a turn that only assents: "I like that.", "I agree.", "Yeah, okay." */
const ASSENT_SENTENCE =
  /^(?:(?:mm|hm|hmm|oh|okay|ok|right|alright|all right|yes|yeah|yep|fine|good|great|sure|well)[,.!]?\s*)*(?:i like (?:that|it|this)|i agree|i think (?:that's|you're|she's|he's) right|that's right|(?:that )?makes sense|i'm convinced|fair enough|fair|works for me|fine by me|sounds good|agreed|okay|ok|right|alright|yes|yeah|yep|fine|good)[.!]*$/;
/** Assent words opening the sentence itself: "Okay, line two restarts a day early." */
const ASSENT_LEAD = /^(?:(?:mm|hm|okay|ok|right|alright|all right|yes|yeah|yep|fine|agreed|then)[,.!]?\s+)+/;
/** A reply that takes the plan up: "Fine by me.", "Works.", "Agreed." */
const TAKES_UP_REPLY =
  /^(?:(?:okay|ok|yes|yeah|yep|right)[,.!]?\s+)?(?:agreed|fine by me|works(?: for me)?|that works(?: for me)?|sounds good|fine|good|deal|done|i'm fine with that|happy with that)[.!]*$/;
/** Put as something to do: "I'd rather…", "We could…", "What about…?", "Should we…?", "X or Y?" */
const PROPOSAL_ISH =
  /\b(?:i'd|i would|i could|i think we|we should|we could|we can|could we|can we|should we|shall we|do we|are we|what about|how about|what if|why don't we|maybe we|let's|i (?:suggest|propose|recommend|move))\b|\bor\b[^.?!]*\?$/;
/** What says the speaker is unsure, explaining, or reporting rather than settling. */
const NOT_SETTLED =
  /\b(?:i think|i guess|i suppose|maybe|probably|perhaps|not sure|i don't know|might|should|could|would|was|were|had|did|didn't|if|because|still|basically|won't|can't|wouldn't|isn't|aren't|doesn't|don't|need|needs|want|wants|means?|makes?|sounds?|looks?|seems?|feels?|works?|helps?|matters?|question|i (?:wonder|guess|feel|believe|hope|mean|know|see)|last (?:spring|summer|autumn|fall|winter|season|time))\b/;
/** Openings of a reason, an opinion, a task or a question word, not of the plan. */
const NOT_A_PLAN_START =
  /^(?:i|i'm|i'd|i've|i'll|you|you're|he|she|they|it|it's|its|that|that's|this|there|there's|but|because|and|also|honestly|personally|which|what|who|how|why|when|where|let me|let's|let us|next|last|first|thanks|thank you|sorry|one|anyway)\b/;
/** Verbs said as "is/are …" that settle something rather than describe it. */
const SETTLED_PARTICIPLE =
  /^(?:funded|declined|approved|accepted|rejected|closed|cancell?ed|dropped|moved|postponed|deferred|tabled|capped|frozen|scrapped|kept|paused|banned|allowed|limited|restricted|removed|added|included|excluded|split|fixed|set|locked|booked|confirmed|agreed|settled|off)$/;

/** The turn's sentences, in order. */
function turnOf(sentences: Sentence[], i: number): Sentence[] {
  return [...sentencesOfLine(sentences, sentences[i]!.line)];
}

/** The content lemmas and words of a sentence, for matching a plan to the proposal it takes up. */
function keyWords(tokens: Token[]): Set<string> {
  const out = new Set<string>();
  for (const t of tokens)
    if (
      t.word &&
      (!t.stop || t.pos === 'NUM') &&
      t.lower.length > 1 &&
      !/^(?:okay|ok|yes|yeah|fine|then|so|right|one|two|first|thing|way|time)$/.test(t.lower)
    ) {
      for (const f of forms(t)) out.add(f);
    }
  return out;
}

/**
 * A plan said as a statement: no question, no hedge or condition, not a reason or an opinion
 * ("Ten thousand is too late."), with two content words at least.
 */
function planLike(s: Sentence, rest: string): boolean {
  const t = rest.trim();
  if (t === '' || t.endsWith('?') || NOT_SETTLED.test(t) || NOT_A_PLAN_START.test(t)) return false;
  if (PAST.test(t) || recalled(t)) return false;
  const words = s.tokens.filter((w) => w.word && rest.includes(w.lower));
  // "Okay, we tried a raffle…": a report of the past (a verb in -ed not after "is"/"are").
  const firstVerb = words.findIndex((w) => w.pos === 'VERB' || w.pos === 'AUX');
  const fv = words[firstVerb];
  if (fv && fv.pos === 'VERB' && /ed$/.test(fv.lower) && fv.lemma !== fv.lower) return false;
  // "Hosts only.", "Ten and not a point more.": without a verb one content word may be the plan.
  const least = verbless(s, t) ? 1 : 2;
  if (
    contentLemmas(words).filter((l) => !/^(?:okay|ok|yes|yeah|fine|then|so|right|mm)$/.test(l)).length < least
  )
    return false;
  // "Ten thousand is too late.", "From the floor side, short is easier": the first verb is "is"
  // with a view after it; "bay C is closed to admissions" rules.
  const k = words.findIndex(
    (w) => w.pos === 'VERB' || w.pos === 'AUX' || w.lower === "'s" || w.lower === "'re",
  );
  const verb = words[k];
  if (verb && (verb.lemma === 'be' || verb.lower === "'s" || verb.lower === "'re")) {
    let n = k + 1;
    while (words[n] && /^(?:not|n't|now|also|still|just|too|very|really|so)$/.test(words[n]!.lower)) n += 1;
    const next = words[n];
    if (next && next.pos === 'ADJ' && !SETTLED_PARTICIPLE.test(next.lower)) return false;
  }
  return true;
}

/** No verb or auxiliary among the words of `part`: "Hosts only", "full route tomorrow at six". */
function verbless(s: Sentence, part: string): boolean {
  const words = s.tokens.filter((w) => w.word && part.includes(w.lower));
  return words.length > 0 && !words.some((w) => w.pos === 'VERB' || w.pos === 'AUX');
}

/** Forms a word may take in another sentence: its lemma, itself, without a plural "s". */
function forms(t: Token): string[] {
  return [t.lemma, t.lower, t.lower.replace(/s$/, '')];
}

/**
 * Another speaker's proposal or question within the last few lines that shares `least` words
 * with the plan (counted once each). A request to someone ("can you…?") or a task taken is no
 * proposal of a plan.
 */
function proposalTakenUp(
  sentences: Sentence[],
  i: number,
  plan: Token[],
  actionSentences: ReadonlySet<Sentence>,
  least = 1,
): Sentence | null {
  const s = sentences[i]!;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= TAKE_UP_WINDOW; j -= 1) {
    const p = sentences[j]!;
    if (p.line === s.line || p.speaker === s.speaker) continue;
    // "Samir, can you have it down by Friday?" – "Yeah, Thursday evening.": a task taken, not a plan.
    if (actionSentences.has(p) || /\b(?:can|could|will|would) you\b/.test(p.lower)) continue;
    // Only something put as a thing to do ("Is the shop open on Fridays?" asks what is), and not
    // the "if" of a condition ("What happens if an inspector turns up?" – "Then we apologise.").
    // A question without a verb names an option: "Full funding for all three?"
    const option = p.lower.trim().endsWith('?') && !p.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
    if (
      !(PROPOSAL_ISH.test(p.lower) || option) ||
      (/\bif\b/.test(p.lower) && !/\bwhat if we\b/.test(p.lower))
    )
      continue;
    const theirs = keyWords(p.tokens);
    const shared = new Set(
      plan.filter((t) => keyWords([t]).size > 0 && forms(t).some((f) => theirs.has(f))).map((t) => t.lemma),
    );
    if (shared.size >= least) return p;
  }
  return null;
}

/**
 * "I like that. Google in Q1, Outlook the moment the review clears.", "Okay, line two restarts a
 * day early.", "Agreed, bay C is closed to admissions until the results are back.": the turn opens
 * with assent (a sentence of its own, or the sentence's first words), then says a plan that takes
 * up what another speaker proposed or asked in the last three lines. Or the plan said first and
 * taken up by the next speaker's bare assent ("Singles for the principals, twins for the rest." –
 * "Fine by me.").
 */
export function planTakenUp(
  sentences: Sentence[],
  i: number,
  actionSentences: ReadonlySet<Sentence>,
): TurnDecision | null {
  const s = sentences[i]!;
  if (actionSentences.has(s)) return null;
  const turn = turnOf(sentences, i);
  const at = turn.indexOf(s);
  const before = turn.slice(0, at);
  const lower = s.lower.trim();
  // What the turn said before this sentence: only assent ("Mm. Yeah, okay."), or anything that
  // is no question ("Hm. You're the one who gets the tickets. Fine, Leeds first, …").
  const assentBefore = at > 0 && before.every((q) => ASSENT_SENTENCE.test(q.lower.trim()));
  const asked = before.some((q) => q.lower.trim().endsWith('?'));
  const lead = ASSENT_LEAD.exec(lower);
  let rest: string | null = null;
  if (assentBefore) rest = lower.replace(ASSENT_LEAD, '');
  else if (lead && !asked) rest = lower.slice(lead[0].length);
  else if (at === 0) {
    // The next turn only takes it up: "Fine by me." (not "Fine. Fine. Short menu for…").
    const reply = sentencesOfLine(sentences, s.line + 1);
    const whole = turn.slice(1).every((q) => !q.lower.trim().endsWith('?'));
    if (
      reply.length > 0 &&
      reply[0]!.speaker !== s.speaker &&
      whole &&
      reply.every((q) => TAKES_UP_REPLY.test(q.lower.trim()))
    )
      rest = lower;
  }
  if (rest === null || !planLike(s, rest)) return null;
  const planWords = s.tokens.filter((t) => t.word && rest.includes(t.lower));
  const p = proposalTakenUp(sentences, i, planWords, actionSentences);
  if (!p) return null;
  return { text: plain(s, rest), at: [s] };
}

/** "That's not happening this quarter.", "The waiting room is off the table." */
const RULED_OUT =
  /^(?:(?:then|so|okay|ok|right|no|well|yeah|fine|sadly|honestly)[,.!]?\s+)*(?:(?:it's|that's|it is|that is|this is|it|that|this|[\w'-]+(?: [\w'-]+){0,3}) (?:is |are |'s |'re )?(?:not happening|not going ahead|off the table)\b.*)$/;
/** "Not this year.", "No, not for this one.": a proposal question answered no, with when. */
const NOT_THIS =
  /^(?:(?:no|nope|sadly|then)[,.!]?\s+)?not (?:this (?:year|quarter|month|time|round|season|sprint|release|term|cycle|tour)|for this(?: one)?|in (?:q[1-4]|this release))[.!]?$/;

/**
 * A thing ruled out: "Then it's not happening this year.", "The logo is off the table.", or a
 * proposal question ("Should we do a physics demo as well?") answered "Not this year." by someone
 * else. The first is a decision as it stands; the second names its choice through the question.
 */
export function ruledOut(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  const lower = s.lower.trim();
  if (lower.endsWith('?') || PAST.test(lower)) return null;
  if (RULED_OUT.test(lower) && !/\b(?:if|whether|unless)\b/.test(lower))
    return { text: plain(s, lower), at: [s] };
  if (!NOT_THIS.test(lower)) return null;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= 2; j -= 1) {
    const p = sentences[j]!;
    if (p.line === s.line || p.speaker === s.speaker) continue;
    if (p.lower.trim().endsWith('?') && /\b(?:should|shall|can|could|do|are) we\b/.test(p.lower))
      return { text: `${plain(s, lower)} (${plain(p, p.lower)})`, at: [s] };
  }
  return null;
}

/** Sends a question on: "we'll come back to it", "it goes to", "is tabled", "park that". */
const SENDS_ON =
  /\b(?:(?:we'll|we will|let's|we can|we'll have to) (?:come back to|revisit|return to|pick (?:it|this|that) (?:up|back up)|take (?:it|this|that) up|decide|settle|vote on)|(?:is|are|'s|gets?) (?:tabled|deferred|postponed|held over|carried over|parked)|(?:it|this|that) (?:goes|will go|can go|should go) (?:to|back to)\b|(?:table|defer|postpone|park) (?:it|this|that)\b|hold off on)\b/;
const MONTH = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** A named later time or forum: "at the November meeting", "to the board", "next week", "on the 29th". */
const NAMED_LATER = new RegExp(
  String.raw`\b(?:at|until|till|to|for|on|in) (?:the |our |next )?(?:[\w'-]+ ){0,3}(?:meeting|board|session|review|agm|committee|call|retro|sync|planning)\b|\bnext (?:week|month|meeting|quarter|review|session|sprint|year)\b|\b(?:until|till|to|on|in|by|at) (?:${DAY}|${MONTH})\b|\bthe \d{1,2}(?:st|nd|rd|th)\b`,
);

/**
 * "It goes to the mountain manager's meeting on the 29th.", "I'll ask, and we'll come back to it
 * at the November meeting.", "Let's park that and look at it together next week.": a question put
 * off to a named later time or forum (bench/meetings/README.md: a deferral is a decision). Put
 * off with no time ("let's come back to this") it is not.
 */
export function deferredToNamedTime(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  const lower = s.lower.trim();
  if (lower.endsWith('?') || PAST.test(lower) || /\b(?:if|whether|unless)\b/.test(lower)) return null;
  // "I'll take a motion to table it until July": the motion is put; the chair's ruling decides.
  if (/\b(?:motion|i move|i propose|i suggest|i'd)\b/.test(lower)) return null;
  if (!SENDS_ON.test(lower) || !NAMED_LATER.test(lower)) return null;
  return { text: plain(s, lower), at: [s] };
}

/** The words said, from where `rest` starts, capitalised, without closing punctuation. */
function plain(s: Sentence, rest: string): string {
  const at = s.lower.lastIndexOf(rest.trim());
  const text = (at >= 0 ? s.text.slice(at, at + rest.trim().length) : s.text)
    .trim()
    .replace(/[?.!,;:\s]+$/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
