import { contentLemmas, type Sentence } from './nlp.js';
import { firstOfLine, lastBefore, sentencesOfLine } from './lookup.js';

/**
 * Decisions that take more than one turn to make: one of the options put to the room named as
 * the choice ("Options are fourteen or the remote." … "Fourteen, then."), a plan that points back
 * at a proposal ("I'm proposing she gets the commit bit. Objections?" … "Then that's what we'll
 * do."), and a question put off to a named time ("Let's not decide the lease today … bring it to
 * the board on the 22nd and we'll decide there"). Each returns the decision's words and the
 * sentences it stands on, or null.
 */
export interface TurnDecision {
  text: string;
  /** The sentences the decision was made in, first the one that names it. */
  at: Sentence[];
}

/** How far back, in lines, the options or the proposal may have been put. */
const OPTIONS_WINDOW = 6;
const PROPOSAL_WINDOW = 4;

/** A sentence that puts alternatives: "…, or the short one?", "three options: …", "between X and Y". */
const NAMES_OPTIONS = /\b(?:options?|choices?|alternatives|contenders|candidates)\b|\bbetween\b.+\band\b/;
/** Words of an options sentence that name no option. */
const NOT_AN_OPTION =
  /^(?:option|choice|alternative|contender|candidate|one|thing|way|go|do|want|think|say|mean|need|get|have|be|can|could|would|should|use|make|take|pick|choose|decide|between|either|both|other|else|instead|rather|just|still|really)$/;
/** An answer that only leans: "Thinking, I'd say.", "Probably the grey." */
const HEDGED = /\b(?:i'd say|i think|i guess|i suppose|maybe|probably|perhaps|not sure|i'd lean|leaning)\b/;
/** What closes a choice: "then" at the end of its clause ("Fourteen, then.", "Hospital leads, then, …"). */
const THEN_CLOSE = /^(.+?),? then(?:[,.!;]|$)/;
/** The start of a reply that takes the choice up: "Fine by me.", "Agreed, senior's right." */
const ASSENT_START =
  /^(?:agreed|fine by me|works for me|that works|sounds good|sounds right|makes sense|yes|yeah|yep|okay|ok|fine|good|great|perfect|deal|done|lock it in)\b/;
/** A sentence of only assent words: "Fine.", "Fine. Fine.", "Yes." */
const AFFIRM_ONLY =
  /^(?:(?:okay|ok|alright|all right|right|fine|agreed|yes|yeah|yep|good|great|perfect)[,.!]?\s*)+$/;
/** Said to wrap up or to greet, never a choice: "See you Friday, then.", "Thanks, then." */
const FAREWELL =
  /^(?:see you|bye|talk|speak|catch you|thanks|thank you|cheers|night|morning|over to|off you go)\b/;

/**
 * The option words put to the room in the last few lines: the content lemmas of a question with
 * "or" that asks the group ("are we doing the full menu, or the short one?") or is verbless
 * ("Blue or green for the banner?"), and of a sentence that names options (with the rest of its
 * line, where the list often follows: "Four contenders. Hospital waiting lists, the parking …").
 */
function optionWords(sentences: Sentence[], i: number): Set<string> {
  const s = sentences[i]!;
  const words = new Set<string>();
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= OPTIONS_WINDOW; j -= 1) {
    const p = sentences[j]!;
    const asksGroup =
      /\bor\b/.test(p.lower) &&
      (/\bwe\b/.test(p.lower) || !p.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX'));
    const named = NAMES_OPTIONS.test(p.lower);
    if (!asksGroup && !named) continue;
    const from = named ? sentencesOfLine(sentences, p.line).filter((q) => q.speaker === p.speaker) : [p];
    for (const q of from)
      for (const t of q.tokens)
        if (t.word && (!t.stop || t.pos === 'NUM') && t.lower.length > 1 && !NOT_AN_OPTION.test(t.lemma))
          words.add(t.lemma);
  }
  return words;
}

/**
 * One of the options named as the choice, in few words, not hedged, and closed as a choice: by
 * "then" ("Eighteenth, then."), by an "Okay." or "Fine." that opens the turn ("Fine. Fine. Short
 * menu for the first week …"), or by someone else taking it up on the next line ("Charcoal." –
 * "Fine by me."). "Short. Honestly, short." answered by "I hate the short menu" is a view.
 */
export function optionChosen(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  const lower = s.lower.trim();
  if (lower.endsWith('?') || HEDGED.test(lower) || FAREWELL.test(lower)) return null;
  const words = s.tokens.filter((t) => t.word);
  // The option comes first: "Charcoal.", "Fourteen, then.", "Only couples." (after "the", "a").
  const lead = words.filter((t) => t.pos !== 'DET' && !AFFIRM_ONLY.test(t.lower)).slice(0, 2);
  const then = THEN_CLOSE.exec(lower);
  const head = then ? then[1]!.split(/\s+/).length : words.length;
  const verbless = !s.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX');
  // A bare option ("Charcoal.", "Short menu for the first week, …") or one closed by "then";
  // "Painted looks best" and "Vinyl can look cheap" are views about an option.
  if (then ? head > 6 : !verbless || words.length > 12) return null;
  const options = optionWords(sentences, i);
  if (!lead.some((t) => options.has(t.lemma))) return null;

  const turnStart = firstOfLine(sentences, s.line);
  const opened = turnStart < i && AFFIRM_ONLY.test(sentences[turnStart]!.lower.trim());
  const reply = sentencesOfLine(sentences, s.line + 1)[0];
  const takenUp = !!reply && reply.speaker !== s.speaker && ASSENT_START.test(reply.lower.trim());
  // The rest of the turn may take it back ("Short. … But honestly, I don't know.").
  if (!then && !opened && !takenUp) return null;
  const at = takenUp ? [s, reply] : [s];
  return { text: withContext(s, sentences, i), at };
}

/**
 * "Hospital leads, then, response or no response.": a plan said as a clause closed by "then",
 * with a subject that is no pronoun ("That's me, then" takes a task, not a choice), after someone
 * else spoke. "Fine, Thursday then." after a counter-proposal: the assent names what it accepts.
 */
export function closedWithThen(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  const lower = s.lower.trim();
  const then = THEN_CLOSE.exec(lower);
  if (!then || lower.endsWith('?') || HEDGED.test(lower) || FAREWELL.test(lower)) return null;
  const before = lastBefore(sentences, i, (p) => p.line < s.line);
  if (!before || before.speaker === s.speaker || s.line - before.line > 1) return null;
  // One clause: "Leave starts Monday, so, today then." closes a date, not a plan.
  if (then[1]!.includes(',') && !/^(?:okay|ok|alright|right|fine|yes|yeah|good),/.test(then[1]!)) return null;
  const head = then[1]!.replace(/^(?:(?:okay|ok|alright|right|fine|yes|yeah|good)[,.!]?\s+)+/, '');
  const headTokens = s.tokens.filter((t) => t.word && head.split(/[\s,]+/).includes(t.lower));
  if (headTokens.length === 0 || headTokens.length > 9 || FAREWELL.test(head)) return null;
  const subject = headTokens[0]!;
  const clause =
    (headTokens.length <= 6 || head !== then[1]) &&
    subject.pos !== 'PRON' &&
    subject.pos !== 'AUX' &&
    headTokens.slice(1).some((t) => t.pos === 'VERB' && t.lemma !== t.lower);
  // "Fine, Thursday then.": assent (in the sentence, or as the turn's first sentence), then the
  // thing another speaker proposed in the last two lines ("Five thousand, then? Normal peak is…").
  const turnStart = firstOfLine(sentences, s.line);
  const opened = turnStart < i && AFFIRM_ONLY.test(sentences[turnStart]!.lower.trim());
  const assented =
    (head !== then[1] || opened) &&
    headTokens.length <= 6 &&
    !headTokens.some((t) => t.pos === 'PRON' || t.pos === 'AUX');
  const proposed = new Set(
    sentences
      .slice(0, i)
      .filter((p) => p.speaker !== s.speaker && s.line - p.line <= 2 && p.line < s.line)
      .flatMap((p) =>
        p.tokens.filter((t) => t.word && (!t.stop || t.pos === 'NUM')).flatMap((t) => [t.lemma, t.lower]),
      ),
  );
  if (!clause && !(assented && headTokens.some((t) => proposed.has(t.lemma) || proposed.has(t.lower))))
    return null;
  return { text: withContext(s, sentences, i), at: [s] };
}

/** Points back at a plan: "Then that's what we'll do.", "So be it.", "Let's do that, then." */
const POINTS_BACK =
  /^(?:(?:then|so|okay|ok|right|good|great|fine|alright)[,.!]?\s+)*(?:(?:that's|that is) what we(?:'ll do| will do|'re going to do| are going to do|'re doing| are doing| do)|so be it|make it so|(?:let's|we'll) do (?:that|it|this))(?:,? then)?[.!]?$/;
/** A plan put to the room: "I'm proposing she gets the commit bit.", "What if we…?", "Shall we…?" */
const PROPOSES =
  /\b(?:i (?:propose|suggest|move|recommend)|i'm (?:proposing|suggesting|recommending)|i'd (?:propose|suggest|recommend|go with|say we)|my (?:proposal|suggestion|recommendation) is|what if we|how about we|why don't we|shall we|should we|here's what we do)\b/;

/**
 * "Then that's what we'll do." names no plan of its own: the proposal put in the last few lines
 * (by anyone, the speaker included) is the decision, and both lines are where it was made.
 */
export function pointsBack(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  if (!POINTS_BACK.test(s.lower.trim())) return null;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= PROPOSAL_WINDOW; j -= 1) {
    const p = sentences[j]!;
    if (p.line === s.line) continue;
    if (PROPOSES.test(p.lower) && contentLemmas(p.tokens).length >= 2) {
      return { text: proposed(p), at: [s, p] };
    }
  }
  return null;
}

/** Putting a choice off: "Let's not decide the lease today.", "Not today." */
const PUTS_OFF =
  /\b(?:let's not (?:decide|settle|choose|pick|vote)|not (?:decide|settle|choose|pick) (?:it |that |this |the [\w' -]+ )?(?:today|tonight|now|yet)|(?:we|nobody) (?:don't|won't|isn't|is not|'s not) (?:decid|choos|settl)\w* (?:anything |it |that )?(?:today|tonight|now))\b/;
/** A time or place to decide it later: "to the board on the 22nd", "at the June meeting". */
const NAMED_LATER =
  /\b(?:to|at|until|till|for|on) (?:the |our )?(?:next |[\w-]+ )?(?:meeting|board|session|review|agm|committee|call)\b|\b(?:on|until|till|to|by) (?:the )?\d{1,2}(?:st|nd|rd|th)\b|\b(?:until|till|to|on) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b|\bwe'll (?:decide|settle|choose|vote)(?: on)?(?: it| that| this)? (?:there|then|at|on|in)\b/;

/**
 * "Let's not decide the lease today. Pete, bring the terms to the board on the 22nd and we'll
 * decide there.": a question put off to a named time is a decision; "Not today." alone is not.
 */
export function putOffToNamedTime(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  if (!PUTS_OFF.test(s.lower)) return null;
  const turn = sentencesOfLine(sentences, s.line);
  const later = turn.find((q) => NAMED_LATER.test(q.lower) && !q.lower.trim().endsWith('?'));
  if (!later) return null;
  const text = later === s ? sayPlain(s) : `${sayPlain(s)}: ${sayPlain(later)}`;
  return { text, at: [s] };
}

/** An offer of a role or terms ("I can be that person for two weeks"), or the other side's request. */
const OFFER_OR_REQUEST =
  /\b(?:i|we) (?:can|could) (?!see|tell|say|hear|imagine|live with|try|ask|check|think)[a-z]+\b|\b(?:i'm|we're) happy to\b|\bwe(?:'d| would)? (?:want|like) (?:a|an|the|our|to have)\b/;
/** A bare yes to it: "Agreed.", "Deal.", "Done." */
const BARE_YES = /^(?:agreed|deal|done|that works|sounds good|fine by me|works for me)[.!]*$/;

/**
 * "We want a named engineer." – "I can be that person." – "Agreed. Oskar is your contact until
 * the end of the month.": a bare yes that opens a turn, to an offer or a request on the line
 * before (not a question, nor an offer of work, which is an action item), decides it; what the
 * turn says next, if anything, says what was decided.
 */
export function offerAgreed(
  sentences: Sentence[],
  i: number,
  actionSentences: ReadonlySet<Sentence>,
): TurnDecision | null {
  const s = sentences[i]!;
  if (!BARE_YES.test(s.lower.trim()) || sentences[i - 1]?.line === s.line) return null;
  const previous = sentencesOfLine(sentences, s.line - 1);
  if (previous.length === 0 || previous[0]!.speaker === s.speaker) return null;
  const offer = previous.find(
    (p) => OFFER_OR_REQUEST.test(p.lower) && !p.lower.trim().endsWith('?') && !actionSentences.has(p),
  );
  if (!offer || previous[previous.length - 1]!.lower.trim().endsWith('?')) return null;
  const next = sentences[i + 1];
  const said =
    next && next.line === s.line && !next.lower.trim().endsWith('?') && contentLemmas(next.tokens).length >= 2
      ? next
      : offer;
  return { text: sayPlain(said), at: [s] };
}

/** Taking a proposal up: "Works for me.", "Yes, let's.", "One more week is fine by me." */
const TAKES_UP =
  /^(?:(?:okay|ok|oh|yes|yeah|yep|right|fine|great|perfect)[,.!]?\s+)*(?:agreed|sounds good|that works|works for me|fine by me|makes sense|deal|let's do (?:it|that)|let's(?=[.!]*$)|yes please|i'm in|i'm happy with that)\b|\b(?:is|sounds|seems) (?:fine|good|okay) (?:by|with|to) me\b/;
/** …with a reservation that keeps it open: "I like it, but who runs it?" */
const RESERVATION = /\b(?:but|though|however|not sure|don't|doubt|worried)\b/;

/**
 * "What if we run it one more week?" – "One more week is fine by me.": a proposal put to the room
 * (what if / how about / why don't we / shall we / I suggest…) that the first other speaker to
 * answer, within two lines, takes up without reservation. A reply that hands the work to someone
 * ("Good idea. Luis, would you…") makes it an action item instead.
 */
export function proposalAgreed(
  sentences: Sentence[],
  i: number,
  actionSentences: ReadonlySet<Sentence>,
): TurnDecision | null {
  const s = sentences[i]!;
  if (sentences[i - 1]?.line === s.line || !TAKES_UP.test(s.lower.trim())) return null;
  const turn = sentencesOfLine(sentences, s.line);
  if (turn.some((q) => actionSentences.has(q) || RESERVATION.test(q.lower))) return null;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= 2; j -= 1) {
    const p = sentences[j]!;
    if (p.speaker === s.speaker) return null;
    const proposes = PROPOSES.test(p.lower) || /^how about\b/.test(p.lower.trim());
    if (!proposes) continue;
    if (actionSentences.has(p) || contentLemmas(p.tokens).length < 2) return null;
    // Only the first answer by someone else counts: the proposer's own "Deal." comes after it.
    const answeredBefore = sentences.slice(j + 1, i).some((q) => q.line > p.line && q.speaker !== p.speaker);
    return answeredBefore ? null : { text: proposed(p), at: [s, p] };
  }
  return null;
}

/** A call for a vote: "All those in favour?", "Show of hands.", "Against?" */
const VOTE_CALL =
  /\b(?:all (?:those )?in favou?r|those in favou?r|show of hands|hands up|against\?|abstentions?\b|put (?:it|this|that) to (?:a|the) vote|let's vote|vote on (?:it|this|that))/;
/** The result in a word: "Carried.", "Motion carried unanimously.", "Defeated." */
const VOTE_RESULT =
  /^(?:(?:so|okay|ok|then|right)[,.]?\s+)?(?:the )?(?:motion |amendment |proposal )?(?:carried|carries|passed|passes|adopted|defeated|rejected|lost|fails|falls)(?: unanimously| then)?[.!]?$/;
/** What was moved: "I move that we ask the council…", "I propose…", "the motion is…". */
const MOTION = /\b(?:i move|i'd like to move|i propose|i'm proposing|the motion is|motion to)\b/;

/**
 * "All those in favour? Eleven. Against? Two. Carried.": a one-word result after a call for a
 * vote in the last three lines; the decision is the motion put (when it was said), and the result
 * is where it was made.
 */
export function voteResult(sentences: Sentence[], i: number): TurnDecision | null {
  const s = sentences[i]!;
  if (!VOTE_RESULT.test(s.lower.trim())) return null;
  // Sentences are in line order: the ones of the last lines are the nearest before it.
  let called = false;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= 3; j -= 1)
    called ||= VOTE_CALL.test(sentences[j]!.lower);
  if (!called) return null;
  let motion: Sentence | undefined;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= 6 && !motion; j -= 1)
    if (MOTION.test(sentences[j]!.lower)) motion = sentences[j];
  return { text: motion ? `${sayPlain(s)}: ${proposed(motion)}` : sayPlain(s), at: [s] };
}

/** A short choice with what it chose between: "Charcoal (Between the grey and the charcoal…)". */
function withContext(s: Sentence, sentences: Sentence[], i: number): string {
  const own = sayPlain(s);
  if (contentLemmas(s.tokens).length >= 3) return own;
  const asked = sentences
    .slice(Math.max(0, i - 8), i)
    .reverse()
    .find((p) => /\bor\b/.test(p.lower) || NAMES_OPTIONS.test(p.lower));
  if (!asked) return own;
  const context = sayPlain(asked);
  return `${own} (${context.length > 100 ? `${context.slice(0, 97)}…` : context})`;
}

/** What a proposal proposes: "What if we run it one more week?" → "Run it one more week". */
function proposed(p: Sentence): string {
  const m =
    /\b(?:what if we|how about we|why don't we|shall we|should we|how about|i (?:propose|suggest|move|recommend)|i'm (?:proposing|suggesting|recommending)|i'd (?:propose|suggest|recommend)|my (?:proposal|suggestion|recommendation) is)(?: that)?(?: we)?[:,]?\s+/.exec(
      p.lower,
    );
  if (!m) return sayPlain(p);
  const text = p.text
    .slice(m.index + m[0].length)
    .trim()
    .replace(/[?.!,;:\s]+$/, '');
  return text.length >= 6 ? text.charAt(0).toUpperCase() + text.slice(1) : sayPlain(p);
}

function sayPlain(s: Sentence): string {
  const text = s.text.trim().replace(/[.!,;:\s]+$/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
