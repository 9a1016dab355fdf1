import { contentLemmas, type Sentence } from './nlp.js';
import { sentencesOfLine } from './lookup.js';

/**
 * Decisions that only the conversation around a sentence shows: a plan stated right after the
 * group was asked whether anyone objects, a proposal question answered by repeating its verb
 * ("Should we cap it?" – "Yes, cap it at ten."), and a plan said in the present tense or as a bare
 * list after an "okay" that closes a discussion ("Okay, we rent the bigger hall.", "Okay, then
 * trains for the team and a coach for the guests."). Each returns the index of the sentence that
 * is the decision, or null.
 */

/** A word that closes a discussion before the plan is stated. */
const AFFIRM_WORD = String.raw`(?:okay|ok|alright|all right|right|fine|agreed|yes|yeah|yep|good|great|perfect)`;
const AFFIRMED = new RegExp(String.raw`^(?:${AFFIRM_WORD}[,.!]?\s+)+(?:(?:then|so)[,]?\s+)?`);

/** The turn's first sentence is only "Right." or "Okay.": what the speaker says next concludes. */
const AFFIRM_ONLY = new RegExp(String.raw`^(?:${AFFIRM_WORD}[,.!]?\s*)+$`);
function turnOpensWithAffirm(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  let first = i;
  while (first > 0 && sentences[first - 1]!.line === s.line) first -= 1;
  return first < i && AFFIRM_ONLY.test(sentences[first]!.lower.trim());
}
const EMPTY_MATCH = Object.assign([''], { index: 0, input: '' }) as RegExpExecArray;
/** "Then we plan as if it doesn't.", "So we keep the old supplier.": a conclusion with "we". */
const CONCLUDES = /^(?:then|so)[,]?\s+(?=we\s)/;

/** "Anyone against?", "Any objections?", "Is everyone okay with that?", "All in favour?" */
const CONSENSUS_CHECK =
  /\b(?:anyone|anybody|everyone|everybody) (?:against|object|disagree)|\bany (?:objections?|concerns|disagreement)\b|^objections\b|\b(?:is )?(?:everyone|everybody) (?:okay|ok|happy|fine|good|comfortable|on board) with\b|\bare we (?:all )?(?:agreed|aligned|good with)\b|\ball in favou?r\b|\bcan we (?:all )?agree\b/;
/** What is said between the check and the plan: "No?", "Nobody?", "Good." */
const SILENCE = /^(?:no|none|nobody|no one|nothing|good|okay|ok|great|right|alright)[?.!]*$/;

/**
 * "Should engineering wait for the results?", "Are we doing the cake stall again?", "Do we keep the
 * old provider?": what is to be done, put as a question.
 */
const SHOULD_QUESTION =
  /\b(?:should|shall) (?:we|i|you|they|[a-z]+) (?:still |also |just |first )?[a-z]+\b|\bare we (?:still |also )?(?!going to need|getting|seeing)[a-z]+ing\b|\bdo we (?:still |also )?(?!need|have|know|think|get|mean)(?:keep|do|go|want|stay|run|hold|use|offer|charge|cancel|drop|open|close|print|book|pay|move|change|switch|stick)\b/;
/** A yes or no that answers it with what is to be done: "No, Victor can start on step one." */
const RULED = /^(?:yes|yeah|yep|no|nope)[,.!]\s+\S/;
const HEDGE = /\b(?:maybe|probably|perhaps|i think|i guess|not sure|no idea|i don't know|depends)\b/;

/** A proposal put as a question: its verb, when an answer repeats it, makes the decision. */
const PROPOSAL =
  /\b(?:should we|shall we|can we|could we|do we want to|why don't we|how about we|what if we) (?:just |also |still |maybe )?([a-z]+)\b/;

/** Verbs after "we" that state a view, a need or a habit rather than a plan. */
const NOT_PLAN =
  /^(?:need|have|want|think|know|like|love|hate|feel|hope|guess|see|mean|get|got|wonder|agree|disagree|should|could|would|can|might|must|do|did|don't|didn't|usually|always|never|still|already|just|all|both|were|are|was|had|tried|talked|discussed)$/;
/** "Okay, we start with the budget.", "we look at the numbers": running the meeting itself. */
const MEETING_VERB =
  /^(?:start|begin|kick|move|go|continue|wrap|turn|come|hear|look|talk|discuss|recap|jump|dive|switch|circle|skip|pause|stop|break)$/;
/** "Okay, we …" where the sentence goes on about how things went, not what will be done. */
const NOT_PLAN_REST = /\b(?:last|yesterday|ago|already|before|earlier)\b/;

/** "That's fine, as long as…" right after someone reports what another side asked for. */
const ACCEPTS =
  /^(?:that's|that is|that'd be|that would be) (?:fine|okay|ok|acceptable)\b|^that works\b|^fine by (?:me|us)\b/;
const ASKED_FOR =
  /\b(?:asked (?:for|if|whether|to|us)|(?:wants?|wanted) (?:to|us)|would like|'d like|requested|proposed|suggested)\b/;

export function confirmedDecision(sentences: Sentence[], i: number): boolean {
  return (
    afterConsensusCheck(sentences, i) ||
    answersProposal(sentences, i) ||
    affirmedPlan(sentences, i) ||
    acceptsRequest(sentences, i) ||
    offerAccepted(sentences, i) ||
    echoedPlan(sentences, i)
  );
}

/** "So we fix it?" – "We fix it.": the plan asked about, said back as a statement by someone else. */
function echoedPlan(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const bare = s.lower.trim().replace(AFFIRMED, '');
  const said = /^we (?:'ll |will )?([a-z]+)\b/.exec(bare);
  if (!said || bare.endsWith('?') || NOT_PLAN.test(said[1]!) || MEETING_VERB.test(said[1]!)) return false;
  const asked = sentences
    .slice(0, i)
    .reverse()
    .find((p) => p.line < s.line);
  return (
    !!asked &&
    s.line - asked.line === 1 &&
    asked.speaker !== s.speaker &&
    asked.lower.trim().endsWith('?') &&
    new RegExp(String.raw`\bwe (?:'ll |will )?${said[1]}\b`).test(asked.lower)
  );
}

/** A side's offer to the other: "we'd like to credit you a month", "we're happy to waive the fee". */
const OFFER_TO_YOU =
  /\bwe(?:'d| would| are|'re) (?:like|happy|glad|willing|be happy|be glad|be willing) to (?!ask|know|hear|see|talk|discuss|understand)\w+ you\b/;
/** The other side taking it: "I appreciate that.", "That's appreciated.", "That's fair." */
const TAKES_OFFER =
  /^(?:(?:okay|oh|well|great)[,.]?\s+)?(?:i appreciate (?:that|it)|(?:that's|that is|much) appreciated|appreciated|that's (?:fair|generous|very fair)|that works|deal)\b/;

/** "…we'd like to credit you one month." – "I appreciate that.": an offer the other side accepts. */
function offerAccepted(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  if (!OFFER_TO_YOU.test(s.lower) || s.lower.trim().endsWith('?')) return false;
  const reply = sentencesOfLine(sentences, s.line + 1)[0];
  return !!reply && reply.speaker !== s.speaker && TAKES_OFFER.test(reply.lower.trim());
}

/** "They asked for the week of the 9th." – "That's fine, as long as it's not a show day." */
function acceptsRequest(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  if (!ACCEPTS.test(s.lower.trim()) || s.lower.trim().endsWith('?')) return false;
  const p = sentences[i - 1];
  return !!p && p.speaker !== s.speaker && s.line - p.line === 1 && ASKED_FOR.test(p.lower);
}

/** "Anyone against? No? Okay, we cap it at ten.": the first real sentence after the check. */
function afterConsensusCheck(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  if (s.lower.trim().endsWith('?') || SILENCE.test(s.lower.trim())) return false;
  for (let j = i - 1; j >= 0; j -= 1) {
    const p = sentences[j]!;
    if (s.line - p.line > 2) return false;
    // "Anyone against? No. We accept it.": after the check a bare "we <verb> it" is enough.
    if (CONSENSUS_CHECK.test(p.lower))
      return (
        p.speaker === s.speaker &&
        (enoughContent(s) ||
          /^we (?!(?:are|have|do|did|get|got|know|see|need|think|were|had|want)\b)[a-z]+ (?:it|that|them|this)[.!]?$/.test(
            s.lower.trim(),
          ))
      );
    // Others may answer in between ("No objections."); the chair's own words may not.
    if (p.speaker === s.speaker && !SILENCE.test(p.lower.trim())) return false;
    if (p.speaker !== s.speaker && p.tokens.filter((t) => t.word).length > 4) return false;
  }
  return false;
}

/** "Should we repeat the test on Friday?" – "Yes, repeat it on Friday with the new kit." */
function answersProposal(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const bare = s.lower.trim();
  const m = AFFIRMED.exec(bare) ?? (RULED.test(bare) ? EMPTY_MATCH : null);
  if (!m || bare.endsWith('?')) return false;
  const first = bare.slice(m[0].length).split(/[\s,.!]+/)[0];
  if (!first) return false;
  for (let j = i - 1; j >= 0 && s.line - sentences[j]!.line <= 2; j -= 1) {
    const p = sentences[j]!;
    const question = p.lower.trim().endsWith('?');
    const proposal = question ? PROPOSAL.exec(p.lower) : null;
    if (proposal && p.speaker !== s.speaker && proposal[1] === first && enoughContent(s)) return true;
    // A should-question answered yes or no, with what happens instead or next.
    if (question && p.speaker !== s.speaker && SHOULD_QUESTION.test(p.lower))
      return RULED.test(bare) && !HEDGE.test(bare) && enoughContent(s, 3);
    if (proposal && p.speaker !== s.speaker) return false;
  }
  return false;
}

/**
 * "Okay, we pay for it out of the reserve." (a present-tense "we" plan) or "Okay, then the hall
 * for the talks and the garden for lunch." (a list with no verb before its first comma), said
 * after someone else has spoken to the point: the discussion is being closed with a choice.
 */
function affirmedPlan(sentences: Sentence[], i: number): boolean {
  const s = sentences[i]!;
  const bare = s.lower.trim();
  if (bare.endsWith('?')) return false;
  // "Okay, we…" in one sentence, "Then we…" closing a discussion, or "Right. … We freeze it
  // where it is." and "Fine. Online only, no print." in one turn.
  const opened = turnOpensWithAffirm(sentences, i);
  const concluded = CONCLUDES.exec(bare);
  const m =
    AFFIRMED.exec(bare) ?? concluded ?? (opened && (/^we\s/.test(bare) || verbless(s)) ? EMPTY_MATCH : null);
  if (!m) return false;
  const rest = bare.slice(m[0].length);
  // The line before is someone else's (or the speaker's own question): a discussion to close.
  const before = sentences
    .slice(0, i)
    .reverse()
    .find((p) => p.line < s.line);
  if (!before || (before.speaker === s.speaker && !before.lower.trim().endsWith('?'))) return false;
  // "Morning." is no discussion to close.
  if (before.tokens.filter((t) => t.word).length < 4 && !before.lower.trim().endsWith('?')) return false;
  // "What happens if the judge orders it?" – "Then we live with it.": the "then" of a condition.
  if (concluded && m === concluded && /\bif\b/.test(before.lower) && before.lower.trim().endsWith('?'))
    return false;
  // "Fine. Online only, no print.": a verbless ruling after someone else's statement, one that
  // sets a limit (an answer to a question, "Yes. All ten days.", is information; "Okay. Now,
  // estimates." and "Good. Last thing, the pricing page." name the next topic).
  if (m === EMPTY_MATCH && !/^we\s/.test(bare))
    return (
      LIMIT.test(bare) &&
      before.speaker !== s.speaker &&
      !before.lower.trim().endsWith('?') &&
      s.tokens.filter((t) => t.word).length >= 2 &&
      enoughContent(s, 1) &&
      !/^(?:thanks|thank you|cheers|bye|welcome|morning|evening|sorry)\b/.test(bare)
    );

  const after = s.tokens.filter((t) => t.word).slice(m[0].split(/[\s,.!]+/).filter(Boolean).length);
  if (after[0]?.lower === 'we') {
    const verb = after[1];
    return (
      !!verb &&
      verb.pos === 'VERB' &&
      verb.lemma === verb.lower &&
      !NOT_PLAN.test(verb.lower) &&
      !MEETING_VERB.test(verb.lower) &&
      !NOT_PLAN_REST.test(rest) &&
      // "Then we wait.": a conclusion needs no more than its verb.
      enoughContent(s, concluded && m === concluded ? 1 : 2)
    );
  }
  // A verbless list needs the "then"/"so" that marks it as the conclusion.
  if (!/(?:then|so)[,]?\s+$/.test(m[0])) return false;
  const firstClause = rest.split(/[,;]/)[0]!;
  const clauseTokens = after.filter((t) => firstClause.includes(t.lower));
  return (
    clauseTokens.length >= 2 &&
    !clauseTokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON') &&
    contentLemmas(s.tokens).length >= 4
  );
}

/** At least two content words besides the affirmation: "Yes, do it." decides nothing alone. */
function enoughContent(s: Sentence, least = 2): boolean {
  return (
    contentLemmas(s.tokens).filter(
      (l) => !/^(?:okay|ok|yes|yeah|yep|no|nope|fine|agreed|alright|right|good|great|perfect|then)$/.test(l),
    ).length >= least
  );
}

/** What a verbless ruling restricts: "X only", "no X", "X, not Y", "X instead". */
const LIMIT = /\b(?:only|no|not|never|without|instead|except|none)\b/;

/** No verb, auxiliary or pronoun: "Online only, no print.", "Only couples." */
function verbless(s: Sentence): boolean {
  return !s.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX' || t.pos === 'PRON');
}
