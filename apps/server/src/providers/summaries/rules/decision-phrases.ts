/**
 * The phrases that make one sentence a decision, or keep it from being one. decisions.ts reads
 * them a sentence at a time; what only the turns around a sentence show is in confirmations.ts
 * and choices.ts.
 */
export const LEAD =
  /^(?:(?:and|so|then|okay|ok|alright|all right|right|yes|no|good|great|fine|agreed|perfect|well)[,.!]?\s+)*/;
export const PAST =
  /\b(?:ago|last (?:year|month|week|time|quarter)|back then|in the past|previously|(?:decided|agreed) (?:back )?in (?:january|february|march|april|may|june|july|august|september|october|november|december|the spring|the summer|the autumn|the fall|the winter))\b/;

const MONTH = 'january|february|march|april|may|june|july|august|september|october|november|december';
/**
 * A time before this meeting: "in February", "back in 2023", "at the last meeting", "last call",
 * "when Nonno died" (a clause in the simple past).
 */
const PAST_TIME = new RegExp(
  String.raw`\b(?:(?:back )?in (?:${MONTH}|(?:19|20)\d\d)|(?:at|in|on) (?:the|our) (?:last|previous) (?:meeting|call|session|review|retro|one)|last (?:call|meeting|session|season|spring|summer|autumn|fall|winter|round)|when (?:[\w'-]+ ){1,3}(?:[a-z]+ed|died|left|came|began|took|went|got|made|was|were|had|said)\b)`,
);
/** The choice said in the past tense: "we agreed", "they decided", "the board voted". */
const PAST_CHOICE =
  /\b(?:we|they|you|i|the \w+) (?:all )?(?:agreed|decided|voted|chose|settled|resolved|said|went with|picked|froze|turned (?:it |them )?down)\b/;
/**
 * "In February we agreed to take the kit deal", "When Nonno died we decided the building stays":
 * a decision recalled, not made. Both parts are needed: "we agreed" alone may be today's.
 */
export function recalled(lower: string): boolean {
  return PAST_CHOICE.test(lower) && (PAST_TIME.test(lower) || NARRATIVE.test(lower));
}
/** Told as a story: "We decided to patch it, because the season was starting." */
const NARRATIVE = /\b(?:was|were|had|did|didn't|wasn't|weren't|hadn't)\b/;

export const EXPLICIT: RegExp[] = [
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
  // A bare "Go with the capped guarantee." by whoever decides (not "go with the flow").
  /^(?:(?:okay|ok|fine|right|then|so|yes|yeah|alright)[,.!]?\s+)*(go with (?!the flow\b|it\b|that\b|this\b|whatever\b|what\b).{4,})$/,
  /\bwe're (going with .+)$/,
  /\b(?:from now on|going forward|moving forward|from today on),?\s*(.+)$/,
  // "From today, any jack left in a walkway gets tagged": a new rule, said first.
  /^(?:from (?:today|tomorrow|monday)|as of (?:today|now|tomorrow|monday)),\s*(.{12,})$/,
  /\b(?:so |okay,? )?the plan is(?: to)?[:,]?\s*(.+)$/,
  /^(.*\b(?:motion (?:carries|passes|is carried)|hearing no objections|without objection|(?:is|are) (?:hereby )?approved|we (?:hereby )?appoint|so resolved)\b.*)$/,
  // A vote's result said by its outcome: "The ayes have it.", "The amendment fails.", "It's unanimous."
  /^(.*\b(?:the (?:ayes|yeas|noes|nays|nos) have it|(?:the )?(?:motion|amendment|proposal|resolution|measure) (?:fails|falls|is (?:defeated|rejected|lost|adopted|passed)|does not (?:pass|carry))|(?:carried|passed|approved|adopted) unanimously|(?:it's|it is|that's|that is) unanimous)\b.*)$/,
  // A formal resolution: "The board resolves to adopt…", "the committee resolves that…".
  /\b(?:the (?:board|committee|council|meeting|panel|trustees|governors|members)|we) (?:hereby )?resolves? (?:to |that )(.*)$/,
  // A ruling by whoever decides: "I'm making the call: fix in both", "my call is we wait".
  // Not a phone call: "I'm making the call to the supplier", "the call is at three".
  /\b(?:i'm|i am) (?:making|taking) (?:the|this|that) (?:call|decision)(?: (?:on|about|for) [^:,;]+)?(?:[:;,]\s*|\s+(?:here|now)[:,]?\s*|[.!]?$)(.*)$/,
  /\b(?:my|the|our) (?:call|ruling|verdict) (?:is|here is)(?:[:,]\s*|\s+(?=that |to |we |it's |they |you ))(?:that |to )?(.*)$/,
  // What the room agreed on, named as such: "Consensus is we drop 3.8." (not "consensus is hard").
  /\b(?:the )?consensus (?:is|seems to be)(?:[:,]\s*|\s+(?=that |to |we |it's |they ))(?:that |to )?(.*)$/,
  // Leave to go ahead: "Then you have the green light, up to nine hundred."
  /^(.*\b(?:have|has|got|get) (?:the|my|our|a) (?:green light|go-ahead|go ahead|blessing)\b.*)$/,
  // A one-word verdict: "Okay, it's a hire.", "That's a go."
  /^(?:so |okay,? |then )?((?:it's|it is|that's|that is) a (?:go|no-go|hire|no-hire|deal))[.!]?$/,
  // Keeping things as they are: "So we keep it as is: comments close on the 22nd."
  /(?<!\b(?:if|unless|whether|when)\s)\b(we (?:'ll |will )?(?:keep|leave) (?:it|them|that|this|things|everything|(?:the |our )?[\w'-]+(?: [\w'-]+){0,2}) (?:as (?:is|it is|they are|it stands)|unchanged|the same|where (?:it is|they are))\b.*)$/,
];

export const REVERSAL = /\bwe (?:take back|reverse|overturn|undo) (?:the |that |our )?decision\b/;
/**
 * Taking back what was just said: "Scratch that, Thursday.", "On second thought, the blue one."
 * What follows it (in the sentence, or the next one) replaces the plan.
 */
export const CHANGE_OF_MIND =
  /^(?:(?:ok|okay|no|actually|wait|sorry|hmm|fair|alright|all right)[,.]?\s+)*(?:scratch that|forget (?:that|what i (?:just )?said)|on second thoughts?|change of plans?|i take (?:it|that) back)\b[,.;:!-]*\s*(.*)$/;
/**
 * A ruling announced, the ruling said with it or in the next sentence: "Okay, here's the call.
 * Harbor stays in the pool…", "Then that's what we do: a ten-day shutdown…".
 */
export const RULING =
  /^(?:here(?:'s| is)|this is|that's|that is) (?:the call|my call|the plan|what we(?:'ll| will| are going to|'re going to)? do|what we're doing|what we are doing)\b(?: then)?[:,.!]?\s*(.*)$/;
/** "Agreed." alone, before the same turn says what is agreed. */
export const AGREED_ALONE = /^(?:agreed|done|deal|settled|decided)[.!]?$/;
/**
 * What follows "Agreed." that is a reason or an opinion, not the thing agreed: "Agreed. I don't
 * want anyone leaning out…", "Agreed. And keeping 3.8 blocks…", "Agreed. The tombola made almost
 * as much…".
 */
export const NOT_AGREED_THING =
  /^(?:and|but|because|so|also|i|i'm|i'd|i've|it|it's|its|that|that's|this|there|there's|honestly|personally|he|she|they|you|nobody|everyone)\b|\b(?:was|were|had|did|didn't|made|took|went|said|got|should|shouldn't|could|would|might|want)\b/;
/** "Flu day is the 13th, in the church hall. Agreed?": a plan put to the room for assent. */
export const ASSENT_CHECK =
  /^(?:agreed|all agreed|everyone agreed|are we agreed|everyone (?:okay|ok|happy|good) with that|okay with everyone|yes|right|ok|okay)\?$/;
/** "so no need to pick now": a choice left for later. */
export const NOT_NOW =
  /\bno need to (?:pick|decide|choose|settle|agree)\b|\bnot (?:decide|pick|choose) (?:now|today|yet)\b/;
export const LETS = /\blet's (?:also |just |quickly |now )?(.+)$/;
/** "let's not pick a venue yet" puts a choice off; "let's not do the raffle this year" makes one. */
export const PUT_OFF =
  /^(?:park (?:it|that|this)|come back to (?:it|that|this)(?: later)?[.!]?$|table (?:it|that|this)|sleep on it|leave (?:it|that) (?:for now|there))|^not (?:decide|choose|pick|settle|vote)\b|^not (?:(?:.*\b(?:yet|right now|for now|today|tonight)\b)|get ahead|rush|worry|panic|go down|get into|spend|dwell|waste|bother|overthink|forget)/;
/** "let's do this" names no choice of its own: the proposal just before it does, if any. */
export const BARE_AGREE = /^(?:do|try|go for) (?:it|this|that)(?: then| now| again)?[.!]?$/;
/** "I want to say something about Saturdays." – "Go ahead.": leave to speak, not a decision. */
export const ASKS_TO_SPEAK =
  /\b(?:(?:i|can i|could i|may i|i'd like to|i want to|let me) (?:just )?(?:say|ask|add|mention|raise|bring up|speak|share|jump in)|quick question|something about)\b/;
/** The same said on its own by whoever decides: "Do it.", "Go ahead.", "Approved." */
export const BARE_APPROVAL =
  /^(?:(?:okay|ok|fine|right|yes|yeah|alright)[,.!]?\s+)*(?:do it|do that|go ahead(?: with it)?|go for it|approved|you have my approval|you've got my approval)(?: then)?[.!]?$/;
/**
 * "let's" that runs the meeting: its order ("let's do the hook rename now", "let's take budgets
 * first"), its length ("let's keep it to forty minutes") and its parts ("let's do a small design
 * question").
 */
export const PROCEDURAL =
  /^(?:(?:do|take|cover|tackle|handle|hear|go through|start with) .{1,40}? (?:now|first|next|last)[.!]?$|keep (?:it|this|things|the (?:meeting|call)) (?:short|brief|quick|tight|focused|to |under )|go\b|make a start|put (?:it|this|that) to (?:a|the) vote|vote\b|leave it (?:there|at that)|stop there|call it (?:a day|there)|start|begin|look|wrap|move on|get (?:started|going)|recap|take a (?:break|look|step back)|hear|see|talk|discuss|throw|capture|meet|brainstorm|continue|keep going|jump|kick|review|walk|circle back|focus|dive|switch|hop|pull up|think|do (?:the|a|an|our|some)? ?(?:[\w-]+ ){0,3}(?:round|question|intro|introductions|update|updates|demo|recap|check-in|retro)s?\b)/;
/**
 * "Then we're dropping the full clean.", "No. We're cutting the matrix.": a plan said in the
 * present progressive, at the head of the sentence (not "…or we're rolling with the light one"),
 * with a verb that changes what will happen. "We're paying for two floors", "we're waiting on
 * them", "we're hiring for the payments squad", "we're starting with the budget" describe what is
 * or run the meeting, and their verbs are not among these.
 */
export const WE_ARE_DOING =
  /^(?:(?:then|so|okay|ok|right|alright|fine|no|yes|well|good)[,.!]?\s+)*(we(?:'re| are) (?:now |also |just )?(?:dropping|cutting|pulling|cancell?ing|scrapping|stopping|switching|moving|changing|keeping|sticking|adding|removing|raising|lowering|increasing|reducing|extending|postponing|delaying|deferring|pushing back|closing|freezing|unfreezing|reversing|splitting|merging|adopting|approving|rejecting|accepting|renewing|replacing|skipping|shelving|parking|trialling|trialing|piloting|waiving|refunding|crediting|funding|going ahead|going with|holding off)\b.*)$/;
/** "We're not naming him.": a choice not to, said in the present. */
export const WE_ARE_NOT =
  /(?<!\b(?:if|unless|because|when|whether|once)\s)\bwe(?:'re| are) not (?!going\b|sure\b|there\b|ready\b|expecting\b|getting\b|seeing\b|talking\b|doing (?:well|great|badly)\b|looking (?:at|for)\b)([a-z]+ing\b.*)$/;
export const WE_WILL =
  // Not in a clause that only sets a condition ("which we won't have unless the grant comes"),
  // nor a consequence nobody chooses ("we'll lose kids"), nor what the meeting does next ("we'll
  // now open public comment").
  /(?<!\b(?:which|if|unless|until|whether|because|once|when)\s)\b(?:we'll|we will|we're going to|we are going to|we won't|we will not|we're not going to|we are not going to) (?!need|make it|manage|be able|get to|have time|have the|have to|see\b|get back|keep\b|be\b|try|talk|discuss|go (?:through|over)\b|run through|walk through|start (?:with|by)\b|know|figure|find out|work (?:it |that |this )?out|have (?:a|another) (?:discussion|chat|conversation|look|break|think|go|quick)|want|probably|think|hear|wait|look into|look at|send you|email you|call you|follow up|now\b|lose\b|miss\b|fail\b|regret|struggle|suffer|run out|end up|fall\b|drown|go under|go bust|get (?:stick|caught|hurt|sued|fined|blamed|burned))(.+)$/;

/**
 * "We'll have a release candidate on the 22nd": a side promising a deliverable by a date is a
 * commitment (an action item when someone owns it), not a choice the meeting makes.
 */
export const DELIVERY =
  /^have (?!(?:a|an|the|our|two|three) (?:party|meeting|session|vote|launch|dinner|lunch)\b).*\b(?:by|on|before|for) (?:the \d|\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|the end of|end of|january|february|march|april|may|june|july|august|september|october|november|december)/;

/** A turn that only assents: "Agreed.", "Fine by me.", "Works for me.", "Sounds good." */
export const ASSENT_ONLY =
  /^(?:(?:yes|yeah|okay|ok|right)[,.!]?\s+)?(?:agreed|fine by me|works for me|that works(?: for me)?|sounds good(?: to me)?)[.!]*$/;

/**
 * "X it is" closes a choice between options ("Okay, the blue one it is, and we print fifty."):
 * X is a short noun phrase, never a clause ("wait until we know what it is").
 */
export const IT_IS = /(?:^|[,;]\s*)((?:[\w'.-]+ ){0,4}[\w'.-]+) it is\b(?:[,;]\s*.*|[.!])?$/;
/** "No raffle this year.", "Yeah, no speaker fee for this event.": a choice not to do something. */
export const NO_THING = new RegExp(
  String.raw`^(?:(?:and|so|then|okay|ok|alright|right|yes|yeah|well|fine|agreed)[,.!]?\s+)*no,? ` +
    String.raw`(?!problem|worries|worry|idea|way|rush|need|one\b|doubt|thanks|pressure|offen[cs]e|kidding|comment|change|updates?|news|blockers?|luck|clue|matter|big deal|questions?)` +
    String.raw`((?:[\w'-]+ ){0,4}[\w'-]+) (?:this time|this year|this round|this quarter|this sprint|this season|any ?more|from now on|going forward|for (?:this|the next|now)\b.*)[.!]?$`,
);

/**
 * "That's agreed with leadership.", "Final answer.", "That's the fallback.": confirms the sentence
 * before it, which is the decision.
 */
export const CONFIRMS =
  /^(?:(?:that's|that is|it's|it is|this is) (?:decided|agreed|settled|final)\b|settled\b|final answer\b|(?:that's|that is) (?:the|our) (?:fallback|plan|decision|call|rule|deal)[.!]?$)/;
/** Said between a choice and its confirmation: "The lamb is … That's it. Final answer." */
export const FILLER = /^(?:that's it|that's that|done|there|there we go|good|right|okay|ok)[.!]*$/;
/** "Agreed, nobody touches the swamp…": agreement that restates the plan as a statement. */
export const AGREED_PLAN = /^(?:(?:okay|ok|yes|yeah|right|fine)[,.!]?\s+)?agreed[,.;:!]\s+(.+)$/;
