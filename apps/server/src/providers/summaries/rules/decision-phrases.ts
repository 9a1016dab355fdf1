/**
 * The phrases that make one sentence a decision, or keep it from being one. decisions.ts reads
 * them a sentence at a time; what only the turns around a sentence show is in confirmations.ts.
 */
export const LEAD =
  /^(?:(?:and|so|then|okay|ok|alright|all right|right|yes|no|good|great|fine|agreed|perfect|well)[,.!]?\s+)*/;
export const PAST =
  /\b(?:ago|last (?:year|month|week|time|quarter)|back then|in the past|previously|(?:decided|agreed) (?:back )?in (?:january|february|march|april|may|june|july|august|september|october|november|december|the spring|the summer|the autumn|the fall|the winter))\b/;

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
  /\bwe're (going with .+)$/,
  /\b(?:from now on|going forward|moving forward|from today on),?\s*(.+)$/,
  // "From today, any jack left in a walkway gets tagged": a new rule, said first.
  /^(?:from (?:today|tomorrow|monday)|as of (?:today|now|tomorrow|monday)),\s*(.{12,})$/,
  /\b(?:so |okay,? )?the plan is(?: to)?[:,]?\s*(.+)$/,
  /^(.*\b(?:motion (?:carries|passes|is carried)|hearing no objections|without objection|(?:is|are) (?:hereby )?approved|we (?:hereby )?appoint|so resolved)\b.*)$/,
];

export const REVERSAL = /\bwe (?:take back|reverse|overturn|undo) (?:the |that |our )?decision\b/;
/** "Flu day is the 13th, in the church hall. Agreed?": a plan put to the room for assent. */
export const ASSENT_CHECK =
  /^(?:agreed|all agreed|everyone agreed|are we agreed|everyone (?:okay|ok|happy|good) with that|okay with everyone|yes|right|ok|okay)\?$/;
/** "so no need to pick now": a choice left for later. */
export const NOT_NOW =
  /\bno need to (?:pick|decide|choose|settle|agree)\b|\bnot (?:decide|pick|choose) (?:now|today|yet)\b/;
export const LETS = /\blet's (?:also |just |quickly |now )?(.+)$/;
/** "let's not pick a venue yet" puts a choice off; "let's not do the raffle this year" makes one. */
export const PUT_OFF =
  /^(?:park (?:it|that|this)|table (?:it|that|this)|sleep on it|leave (?:it|that) (?:for now|there))|^not (?:(?:.*\b(?:yet|right now|for now|today)\b)|get ahead|rush|worry|panic|go down|get into|spend|dwell|waste|bother|overthink|forget)/;
/** "let's do this" names no choice of its own: the proposal just before it does, if any. */
export const BARE_AGREE = /^(?:do|try|go for) (?:it|this|that)(?: then| now| again)?[.!]?$/;
/** "I want to say something about Saturdays." – "Go ahead.": leave to speak, not a decision. */
export const ASKS_TO_SPEAK =
  /\b(?:(?:i|can i|could i|may i|i'd like to|i want to|let me) (?:just )?(?:say|ask|add|mention|raise|bring up|speak|share|jump in)|quick question|something about)\b/;
/** The same said on its own by whoever decides: "Do it.", "Go ahead.", "Approved." */
export const BARE_APPROVAL =
  /^(?:(?:okay|ok|fine|right|yes|yeah|alright)[,.!]?\s+)*(?:do it|go ahead(?: with it)?|go for it|approved|you have my approval|you've got my approval)(?: then)?[.!]?$/;
export const PROCEDURAL =
  /^(?:go\b|make a start|put (?:it|this|that) to (?:a|the) vote|vote\b|leave it (?:there|at that)|stop there|call it (?:a day|there)|start|begin|look|wrap|move on|get (?:started|going)|recap|take a (?:break|look|step back)|hear|see|talk|discuss|throw|capture|meet|brainstorm|continue|keep going|jump|kick|review|walk|circle back|focus|dive|switch|hop|pull up|think|do (?:the|a|our|some)? ?(?:usual |quick |small |short |final |last )*(?:round|question|intro|introductions|update|updates|demo|recap|check-in|retro)s?\b)/;
/** "We're not naming him.": a choice not to, said in the present. */
export const WE_ARE_NOT =
  /(?<!\b(?:if|unless|because|when|whether|once)\s)\bwe(?:'re| are) not (?!going\b|sure\b|there\b|ready\b|expecting\b|getting\b|seeing\b|talking\b|doing (?:well|great|badly)\b|looking (?:at|for)\b)([a-z]+ing\b.*)$/;
export const WE_WILL =
  // Not in a clause that only sets a condition ("which we won't have unless the grant comes").
  /(?<!\b(?:which|if|unless|until|whether|because|once|when)\s)\b(?:we'll|we will|we're going to|we are going to|we won't|we will not|we're not going to|we are not going to) (?!need|make it|manage|be able|get to|have time|have the|have to|see\b|get back|keep\b|be\b|try|talk|discuss|know|figure|find out|work (?:it |that |this )?out|have (?:a|another) (?:discussion|chat|conversation|look|break|think|go|quick)|want|probably|think|hear|wait|look into|look at|send you|email you|call you|follow up)(.+)$/;

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
