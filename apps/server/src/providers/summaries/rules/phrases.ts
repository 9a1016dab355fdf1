import type { People } from './people.js';
import type { Sentence } from './nlp.js';

/**
 * The phrase rules that find an action item in one sentence, before any context is used:
 * a commitment by the speaker, a request to someone, or a task that still needs an owner.
 * Each returns the task as an imperative phrase ("review Luis's PR today").
 */
export type Cue =
  | { kind: 'commit'; task: string; owner: string }
  /** `also`: the others asked in the same breath ("Reto, Chiara, I need your lists…"). */
  | { kind: 'request'; task: string; owner: string | null; also?: string[] }
  /** "someone should…", "who's updating…?", "should we…?": an owner may come in the next lines. */
  | { kind: 'open'; task: string }
  /**
   * "Will do.", "On it.": takes the request or open task just before, adds nothing alone.
   * `self`: the answer takes a task on by itself ("I'll do it."), so with nothing to take it
   * still stands, for what the line before was about.
   */
  | { kind: 'accept'; owner: string; self: boolean }
  /** "I could ask the printer…": an offer, an action item only if the next speaker says yes. */
  | { kind: 'offer'; task: string; owner: string };

/** Words that open a sentence without changing what it asks or promises. */
const LEAD_WORDS = [
  ...[
    'and',
    'so',
    'then',
    'okay',
    'ok',
    'great',
    'good',
    'alright',
    'all right',
    'right',
    'also',
    'oh',
    'well',
  ],
  ...[
    'yes',
    'yeah',
    'sure',
    'perfect',
    'thanks',
    'fair',
    'fine',
    'cool',
    'absolutely',
    'of course',
    'no problem',
  ],
  ...['got it', 'good point', 'good idea', 'good question', 'sounds good', 'makes sense'],
]
  // Longest first: "good idea" must not stop at "good" when no comma follows (speech-to-text).
  .sort((a, b) => b.length - a.length)
  .join('|');
const LEAD = String.raw`^(?:(?:${LEAD_WORDS})[,.!]?\s+)*`;

/**
 * Verbs of the meeting itself ("I'll share my screen", "can you walk us through…", "would you
 * take us through the tables?", "give us the short version", "we'll call you back in", "would
 * you grab her?" for someone waiting outside, "would you mind stepping out?", "I'll take a
 * motion", "I call this meeting to order", "let me put it this way", "I take it back" (a word withdrawn), "I'll stay out of that one"). "See" is perception ("I'll see", "can you see the
 * screen?") unless a person or a thing to visit or examine follows ("I'll see the Lab",
 * "I'll see Mrs Patel at ten"): then it is a task.
 */
const IN_MEETING =
  /^(?:share (?:my|your|the) screen|start with|begin with|be\b|(?:walk|take|run|talk|bring|step) (?:us|you|me|everyone|everybody|the (?:board|committee|panel|room|group|team)) through|give (?:us|me|everyone) (?:the|a|an|your|some) (?:[\w'-]+ ){0,2}(?:version|picture|overview|update|rundown|run-down|summary|headlines?|recap|highlights|gist)\b|call (?:you|him|her|them) (?:back )?in\b|put it (?:this|that|another|differently|simply|bluntly)\b|take (?:it|that) back\b|(?:grab|fetch|get|bring) (?:her|him|them)(?: (?:back|in|back in))?[.!?]*$|(?:take|entertain|accept) (?:a|the|that) motion\b|call (?:this|the|our) (?:[\w'-]+ )*?(?:meeting|session|hearing|assembly)\b.*\bto order\b|second (?:that|it|the motion)\b|open (?:us|the meeting)\b|stay out of\b|recuse|step(?:ping)? (?:out|outside)\b|tell (?:us|me)|show (?:us|you)|explain|describe|repeat|introduce|clarify|elaborate|summari[sz]e|say|speak|talk about|go (?:ahead|first|on|next)|pass (?:it )?(?:over|back|on)|hand (?:it )?over|take notes|mute|unmute|hear|see (?:the|my|your|this|that) (?:screen|slides?|chart|document|doc|link|chat|window|page)\b|see(?! (?:her|him|them|the|a|an|my|your|his|their|our|mr|mrs|ms|dr)\b)|play devil)/;
/** "be there tomorrow at two" is a visit promised; "be quick", "be honest" are about the call. */
const VISIT = /^be (?:there|on site|over|in the office) \S/;
/**
 * Not commitments: wishes, opinions, perception; conceding a point ("I'll give you that"), a
 * prohibition or a stop ("please don't say but", "I'll stop", "don't ring the fire brigade"; but
 * "don't forget to send it" asks for the sending), leaving something to others ("I'll leave it to
 * the letter"), coping ("I'll manage"), taking one's leave ("I'll get going"), blaming; "forget
 * the drivers" calls a task off.
 */
const NOT_A_TASK =
  /^(?:need|want|like|love|hate|admit|bet|guess|think|feel|know|remember|miss|imagine|understand|relate|agree|disagree|wonder|hope|try and see|live with|go along with|get behind|accept that|work with that|believe (?:it|that|you)|(?:give|grant) (?:you|him|her|them) that|(?:don't|do not|never|not)\b(?! forget)|stop(?: (?:there|talking|now|here))?[.!]*$|shut up|manage[.!]*$|leave (?:it|that|this|them) (?:to|there|at that|be)\b|get going\b|head (?:off|out)\b|let you (?:go|get on)\b|blame\b|forget\b)/;

/**
 * Anywhere in the sentence (speech-to-text gives no commas to anchor on), except in a clause that
 * only sets a condition or a time ("if I can…", "when I'll…", "what I can…").
 */
const COMMIT = new RegExp(
  String.raw`(?<!\b(?:if|when|whether|what|unless|because|until|where|how|why|whatever|as long as|now)\s)\b(?:i'll|i will|i'm going to|i am going to|i'm gonna|i can|let me|i'm happy to|i am happy to|i'd be happy to|i would be happy to)\s+(?:also\s+|just\s+|then\s+|quickly\s+|definitely\s+|happily\s+)?(?:try to\s+)?(.+)$`,
);
const WE_FOR_YOU =
  /(?:^|[,;]\s*)(?:we'll|we will)\s+(?:also\s+)?((?:get back to|follow up with|send|email|call|share with) you\b.*)$/;
const DELIVERY =
  /(?:^|\bsay\s+|[,;]\s*)((?:(?:it|that|this|the [\w' -]+?)\s+)?(?:will|'ll|should) be (?:ready|done|finished|complete|merged|live|in place)\b.*)$/;
const ACCEPT =
  /^(?:will do|on it|i'm on it|leave it with me|i've got (?:it|this)|consider it done|you got it|i'll take it|i'll do it|i will|i'll|i can|i can do that|can do|sure thing)(?:,? (?:by|before|on|at|after|first thing|later|right after|tomorrow|today|tonight|this)\b[^?]*)?[.!]?$/;
const SELF_ACCEPT =
  /^(?:leave it with me|i'll take it|i'll do it|i can do that|i'll take that|i'll do that)\b/;
/**
 * A commitment that is only offered: hedged ("I'll probably argue against it", "a ramp I can
 * probably get approved"), conditional on what the others want ("I can pick them up, if that
 * helps", "I can write that if you're stretched"), or terms put on the table in a negotiation
 * ("I can hold fifteen percent at nine for six months", "I can cap any increase at five
 * percent", "I can include it free", "I can hold the rooms without a deposit", "I'll take the
 * mesh off the bill"). Like "I could…", it is an action item only if the next speaker takes it up.
 */
const HEDGED_TASK = /^(?:probably|maybe|possibly|perhaps)\s+/;
/** "I'm happy to go with that / wait / leave it": agreeing, not taking a task on. */
const HAPPY_NOT_A_TASK =
  /^(?:go (?:with|along)|keep|wait|leave|support|back|accept|answer|take (?:any |some )?questions|report|stick|carry on|continue|proceed|move on|help|be\b|have|let|see|hear|say|start|go first|chat|talk|discuss)\b/;
const IF_WANTED =
  /,?\s+if (?:(?:that|it|this)(?:'d| would| will)? (?:helps?|suits?|works? for (?:you|everyone)|is useful|'s useful|makes (?:it|things|life) easier|'s easier|is easier)|(?:you|they|he|she|anyone|anybody|people)(?:'d| would|'re| are)? (?:want|wants|like|likes|need|needs|prefer|prefers|wish|stretched|busy|short|get stuck|can't)|needed|necessary|required)\b.*$/;
const TERMS_OFFER =
  /^(?:offer|take|hold|cap|match|waive|throw in|include|knock|stretch (?:it |that )?to|go (?:down |up )?to|drop (?:it |the price )?to|do (?:it |that |you |this )?(?:for|at) (?:\d|a |one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|fifty|half)).*\b(?:percent|per cent|%|discount|price|rate|fee|a (?:month|year|unit|head|seat)|per (?:month|year|unit|hour|head|seat|kilo|tonne)|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|fifty|hundred|thousand) (?:pounds|dollars|euros|quid|bucks|k)\b|free\b|for nothing\b|at no (?:extra )?(?:cost|charge)\b|without (?:a |any )?(?:deposit|charge|fee)\b|off the (?:bill|price|invoice|quote|total)\b)/;
/**
 * What the speaker does as a habit, or did, told as a story (an interview answer, a how-we-work
 * description): "Usually I'll sit with the team first", "In my last job I'd…", "I'll always
 * check the logs", "Whenever it breaks I'll restart it".
 */
const HABIT_BEFORE =
  /\b(?:(?:usually|normally|typically|generally|often|sometimes|always|in my (?:last|previous|old|first) (?:job|role|team|company|position|post)),?|(?:whenever|every time|each time)\b[^.;?!]*,)\s*$/;
const HABIT_TASK = /^(?:always|usually|normally|typically|generally|often|sometimes|never)\b/;
const DOUBT_BEFORE =
  /\b(?:(?:don't|do not|didn't|doesn't) (?:think|know if|know whether|believe)|not sure(?: if| whether| that)?|doubt(?: if| whether| that)?|no idea if|wish)\s+$/;
/** "I could see if the agency can…": a hedged offer (not "if I could…", not a question). */
const OFFER = /(?<!\b(?:if|when|whether|what|how)\s)\bi could (?:maybe |probably |also |always )?(.+)$/;
/**
 * A commitment in the simple present, as many non-native speakers make it ("Yes, I send it after
 * this meeting.", "And I make the re-test tomorrow afternoon.", "I prepare the order until
 * Thursday evening"): "I" and a task verb, with a time still to come in the same sentence. Without
 * such a time it reads as a habit or a description ("I send the report to finance"), and so does
 * a plural day ("on Mondays"). Found on blind-10's shipyard meeting, after that set was measured.
 */
const PRESENT_COMMIT =
  /(?:^|[,;]\s*|\b(?:and|so|then|but)\s+)i ((?:send|call|phone|ring|e-?mail|text|write|prepare|make|check|update|book|order|ask|tell|fix|test|finish|bring|put|organi[sz]e|arrange|contact|print|draft|schedule|buy|pay|collect|deliver|install|confirm|do)\b.+)$/;
/**
 * The same with any other verb the tagger reads as a base-form verb ("I change it tonight", "I
 * translate the poster on Monday", "before the holidays I go through all of it"), except verbs of
 * a state, a feeling or coming and going.
 */
const PRESENT_ANY = /(?:^|[,;]\s*|\b(?:and|so|then|but)\s+|\s)i ([a-z]+)\b(.*)$/;
const STATE_VERB =
  /^(?:think|know|want|need|like|love|hate|see|hear|feel|mean|agree|disagree|guess|hope|believe|understand|remember|forget|have|say|suppose|prefer|wish|expect|doubt|wonder|care|mind|live|come|leave|stay|arrive|go|get|am|can|will|would|could|should|must|may|might|shall|did|was|had|promise|bet|reckon|suggest|propose|vote|move|second|apologi[sz]e|thank|trust|worry|assume|imagine|admit|realise|realize|notice|find|look|sound|seem|appreciate)$/;
const MONTH = 'january|february|march|april|may|june|july|august|september|october|november|december';
/**
 * A time still to come: a day named, or a date ("on the 6th", "by the 14th of May", "until 3
 * June", "next Friday"); "every"/"each" after it makes it a habit (checked apart).
 */
const FUTURE_TIME = new RegExp(
  String.raw`\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|week)|after (?:this|the) (?:meeting|call)|later today|first thing|next (?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|before (?:lunch|noon|the end of (?:the )?(?:day|week))|(?:by|until|till|before|on|within) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!s)|(?:by|until|till|before|on) (?:the )?\d{1,2}(?:st|nd|rd|th)\b|(?:by|until|till|before|on) (?:the )?(?:\d{1,2}(?:st|nd|rd|th)? (?:of )?)?(?:${MONTH})\b)`,
);
/** A time put first: "Before Christmas I go through it", "In two days I finish it". */
const FUTURE_TIME_BEFORE =
  /\b(?:before (?:christmas|easter|the (?:weekend|holidays|summer|break))|in (?:two|three|a few|\d+) days|on the \d{1,2}(?:st|nd|rd|th))\b/;
/** "I send it on the 6th of every month": a habit, though a date is named. */
const RECURRING = /\b(?:every|each)\b/;
/**
 * The simple present with no time, taken as a commitment only where the speaker is plainly
 * answering what was just said: after "OK", "so", "and", "good", "yes" or "then" ("OK, I tell the
 * driver.", "So, I send you a short summary by email.", "And I make the German"), or about
 * something just named ("I write it on the website."). Not a story ("so I call them and they say
 * no"), a condition or a habit ("on Mondays"), not "I tell you…" said for emphasis, and not "do".
 */
const ANSWER_LEAD = /^(?:ok|okay|so|and|good|yes|yeah|then|fine|alright|all right)\b/;
const NAMED_BEFORE = /^\w+ (?:it|them|this|that)\b/;
const NOT_NOW =
  /\b(?:and|but|then) (?:he|she|they|it|you|we) \w+|\b(?:when|whenever|if|unless|usually|normally|always|often|sometimes|never|every|each|(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|mornings|evenings)\b|^tell you\b(?! (?:the|by|when|on|tomorrow|today))|^do\b/;
/**
 * "I can do it again, but I'd rather someone else did", "I can open on the 13th, but I don't
 * want to open alone": the speaker hands it on or names what they can but will not do.
 */
const DECLINED =
  /\bbut (?:(?:i'd|i would) (?:rather|prefer)(?: not| someone else| somebody else| if someone)|i (?:don't|do not) want to (?:\w+ )?(?:it )?(?:alone|on my own|by myself)\b)/;

/** "Can everyone see the map?", "can everybody hear me?": about the call itself. */
const ALL_ON_CALL = /^(?:see|hear|follow|read|access|open|find|join|get in)\b/;
/** "Can everyone…", "could you all…", "would all of you…". */
const ASK_ALL = String.raw`(?:could|can|would|will) (?:everyone|everybody|you all|all of you) (?:please )?(?:also )?`;
const ASK = String.raw`(?:would you mind |(?:could|can|would|will) you (?:please )?(?:also )?|please (?!do\b|and\b)|i'd like you to |i need you to |do you want to |if you could (?:please |just |also )?)`;
/**
 * "If you could send me the list by the 14th, the kitchen will have it in time" asks; "if you
 * could get a discount, we'd sign" sets a condition (unless what follows is thanks: "I'd be
 * grateful").
 */
const IF_CONDITION =
  /\bif you could\b[^,;]*[,;]\s*(?:then\s+)?(?:we|i|they|he|she|you|it|that)(?:'d| would)\b(?! (?:be|really) (?:grateful|glad|great|happy|lovely|brilliant|perfect|helpful|ideal|wonderful|good)| appreciate)/;
/**
 * "Odile, I'll need three quotes from you for the release": what the speaker will need from the
 * one named; the task is to send it.
 */
const NEED_FROM_YOU = /^(?:i|we)(?:'ll| will)? need (.+?) from you\b.*$/;
/**
 * A task claimed: "<task>, that's mine", "<task> is on me". Not a thing owned ("the blue mug is
 * mine", "the decision is mine to make"): "mine" only after "<task>, that's", and the claim ends
 * the clause.
 */
const CLAIMED =
  /^(.+?)(?:,\s+(?:that's|that is)\s+(?:mine|on me|down to me)|\s+(?:is|are)\s+(?:on me|down to me))(?:,?\s+(?:then|too|as well))?\s*(?:[.!,;]|$)/;
/** "Lunch is on me", "the first round's on me": a treat, not a task. */
const TREAT =
  /\b(?:lunch|coffee|coffees|drinks?|dinner|breakfast|round|beers?|pizza|tea|cake|bill|tab|snacks?)\b/;
/**
 * "I need your lists by the 1st of June": what the speaker needs from someone, with a time;
 * the task is to send it.
 */
const NEED_YOUR = new RegExp(
  String.raw`^(?:i|we) (?:need|want|'d like|would like) (your [\w' -]+?,? (?:by|until|till|before|on) .+)$`,
);
const OPEN_PATTERNS: RegExp[] = [
  /\b(?:someone|somebody|anyone|anybody) (?:should|needs to|has to|must|ought to|could) (?:probably |maybe |also |just )*(.+)$/,
  /\bwe need (?:someone|somebody) to (.+)$/,
  // Not an ongoing practice urged on everyone: "we should all be planting more for late summer".
  /\bwe (?:should|need to|have to) (?!think|talk|discuss|consider|decide|see|keep in mind|(?:all )?be \w+ing\b)(.+)$/,
  /^(?:\w+, )?should we (?:also )?(.+)\?$/,
  /\bwho(?:'s| is) (\w+ing .+)\?$/,
  /\bwho (?:will|can|wants to|'ll) (.+)\?$/,
];

export function cue(s: Sentence, people: People, previousSpeaker: string | null): Cue | null {
  const lower = s.lower.replace(/\s+/g, ' ').trim();
  const bare = lower.replace(new RegExp(LEAD), '');
  // "Sure, I will.": an answer that names no task of its own.
  if (ACCEPT.test(bare)) return { kind: 'accept', owner: s.speaker, self: SELF_ACCEPT.test(bare) };
  // "Now I'll add an index…": the speaker is doing it on the call, not taking it away.
  if (/^now\b/.test(bare)) return null;

  const request = matchRequest(s, bare, people, previousSpeaker);
  if (request) return request;

  // "The logrotate config, that's mine.", "Then the label copy is on me.": a task claimed.
  const claimed = CLAIMED.exec(bare);
  if (claimed && !bare.endsWith('?') && !TREAT.test(claimed[1]!)) {
    const what = claimed[1]!.replace(/^(?:then|and|so|but)\s+/, '');
    if (what.split(/\s+/).length <= 12) {
      const said = clean(s, what);
      const task = /^(?:that|this|it)$/.test(what)
        ? 'Do it'
        : `Do ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
      return { kind: 'commit', task, owner: s.speaker };
    }
  }

  const we = WE_FOR_YOU.exec(bare);
  if (we && !IN_MEETING.test(we[1]!)) return { kind: 'commit', task: clean(s, we[1]!), owner: s.speaker };

  const commit = COMMIT.exec(bare);
  // "I don't think I can face…", "I'm not sure I can…": what the speaker doubts they can do.
  const doubted = !!commit && DOUBT_BEFORE.test(bare.slice(0, commit.index));
  const habit = !!commit && (HABIT_BEFORE.test(bare.slice(0, commit.index)) || HABIT_TASK.test(commit[1]!));
  if (commit && !bare.endsWith('?') && !DECLINED.test(bare) && !habit && !doubted) {
    // "I'll see if I can find out…": a try is still the task taken on; so is "I'll need to get
    // the change approved" (not "I can need to…").
    const task = commit[1]!
      .replace(/^see if (?:i|we) can (?:also )?/, '')
      .replace(/^(?:also )?need to (?:also )?/, (m) => (/^i can\b/.test(bare.slice(commit.index)) ? m : ''));
    // "I can sign off myself": what the speaker is able to do, not a task taken on.
    const ability = /^i can\b/.test(bare.slice(commit.index)) && /\bmyself\b/.test(task);
    // "I can see the problem", "let me see the list": perception, or a look taken on the call
    // ("I can see her at eleven" is a visit).
    const looking =
      /^(?:i can|let me)\b/.test(bare.slice(commit.index)) &&
      /^see\b(?! (?:her|him|them|mr|mrs|ms|dr)\b)/.test(task);
    const inMeeting = IN_MEETING.test(task) && !VISIT.test(task);
    // "I'm happy to organise the move" takes it on; "I'm happy to go with that" agrees.
    const happy = /^i(?:'m| am|'d be| would be) happy to\b/.test(bare.slice(commit.index));
    const agreed = happy && HAPPY_NOT_A_TASK.test(task);
    // "Let me just — hang on, I've got it up": broken off, nothing taken on.
    const brokenOff = /^[—–-]/.test(task);
    if (
      !inMeeting &&
      !NOT_A_TASK.test(task) &&
      !/^know\b/.test(task) &&
      !ability &&
      !looking &&
      !agreed &&
      !brokenOff
    ) {
      const hedged = HEDGED_TASK.exec(task);
      // "I can offer Monday the ninth or the sixteenth": a choice put to the others.
      const offered = /^i can offer\b/.test(bare.slice(commit.index));
      if (hedged || IF_WANTED.test(task) || TERMS_OFFER.test(task) || offered) {
        const offered = task.slice(hedged?.[0].length ?? 0).replace(IF_WANTED, '');
        return { kind: 'offer', task: clean(s, offered), owner: s.speaker };
      }
      return { kind: 'commit', task: clean(s, task), owner: s.speaker };
    }
  }
  const present = PRESENT_COMMIT.exec(bare);
  if (
    present &&
    !bare.endsWith('?') &&
    !HABIT_BEFORE.test(bare.slice(0, present.index)) &&
    !IN_MEETING.test(present[1]!) &&
    ((FUTURE_TIME.test(present[1]!) && !RECURRING.test(present[1]!)) ||
      (present.index === 0 &&
        (ANSWER_LEAD.test(lower) || NAMED_BEFORE.test(present[1]!)) &&
        !NOT_NOW.test(present[1]!) &&
        taskLike(present[1]!)))
  )
    return { kind: 'commit', task: clean(s, present[1]!), owner: s.speaker };
  const other = present ? null : PRESENT_ANY.exec(bare);
  if (other && !bare.endsWith('?') && presentTask(s, other[1]!)) {
    const task = `${other[1]!}${other[2]!}`;
    const before = bare.slice(0, other.index);
    const timed =
      (FUTURE_TIME.test(task) || FUTURE_TIME.test(before) || FUTURE_TIME_BEFORE.test(before)) &&
      !RECURRING.test(bare) &&
      !NOT_NOW.test(before) &&
      !NOT_NOW.test(task.replace(/^\w+/, ''));
    if (timed && !HABIT_BEFORE.test(before) && !IN_MEETING.test(task) && taskLike(task))
      return { kind: 'commit', task: clean(s, task), owner: s.speaker };
  }
  const delivery = DELIVERY.exec(bare);
  if (
    delivery &&
    !bare.endsWith('?') &&
    /\b(by|on|before|today|tonight|tomorrow|this)\b/.test(delivery[1]!)
  ) {
    return { kind: 'commit', task: clean(s, delivery[1]!), owner: s.speaker };
  }
  const offer = OFFER.exec(bare);
  if (offer && !bare.endsWith('?') && !DECLINED.test(bare)) {
    const task = offer[1]!;
    if (/^see if\b/.test(task) || (!IN_MEETING.test(task) && !NOT_A_TASK.test(task) && taskLike(task)))
      return { kind: 'offer', task: clean(s, task), owner: s.speaker };
  }
  for (const pattern of OPEN_PATTERNS) {
    const m = pattern.exec(bare);
    if (m) return { kind: 'open', task: toBase(clean(s, m[1]!), s) };
  }
  return null;
}

function matchRequest(s: Sentence, bare: string, people: People, previousSpeaker: string | null): Cue | null {
  if (IF_CONDITION.test(bare)) return null;
  // "Can everyone send me thirty quid by Monday?": asked of all, nobody in particular.
  // "…, so can everyone send me thirty quid by Monday?" too.
  const all = new RegExp(String.raw`(?:^|[,;]\s*(?:so\s+)?|\bso\s+)${ASK_ALL}(.+)$`).exec(bare);
  if (all && taskLike(all[1]!) && !ALL_ON_CALL.test(all[1]!))
    return { kind: 'request', task: toBase(clean(s, all[1]!), s), owner: null };
  // "Everyone who's claiming expenses, I need your receipts by the 30th", "Everybody, send me…".
  const toAll = /^(?:everyone|everybody|all of you)\b([^,?]{0,40}),\s+(.+)$/.exec(bare);
  if (toAll && !/\b(?:i|we)\b/.test(toAll[1]!)) {
    const needed = NEED_YOUR.exec(toAll[2]!);
    if (needed) return { kind: 'request', task: sendTask(s, needed[1]!), owner: null };
    if (toAll[1] === '' && imperative(toAll[2]!, s, people))
      return { kind: 'request', task: clean(s, toAll[2]!), owner: null };
  }
  const names = people.size > 0 ? people.pattern() : null;
  if (names) {
    // "Luis, could you…", "Laura, send the link…", "Aisha, since you built it, please update…";
    // "Reto, Chiara, I need…", "Ana and Ben, send…": one request to each.
    const named = new RegExp(
      String.raw`^(?:hey |hi )?(${names})((?:(?:,\s*|\s+)(?:and\s+)?(?:${names})(?=[,\s]))*)(,?)\s+(.+)$`,
    ).exec(bare);
    if (named) {
      const owner = people.find(named[1]!);
      const others = named[2]!
        .split(/,\s*|\s+/)
        .filter((w) => w !== '' && w !== 'and')
        .map((w) => people.find(w))
        .filter((n): n is string => n !== null && n !== owner);
      const also = others.length > 0 ? { also: [...new Set(others)] } : {};
      const rest = named[4]!;
      // "Ben, timebox it…, please, and report back": the verb that opens it is the request; after
      // two names only with a comma ("Sunita and Mateo read them" tells who does it).
      if ((others.length === 0 || named[3] === ',') && imperative(rest, s, people))
        return { kind: 'request', task: clean(s, rest), owner, ...also };
      // "Jomar, you prepare the documents", "Rhys, you and Kwame swap the ropes after close",
      // "Javier, you can call the crane company?": a task told or asked with "you" (the one named
      // is asked; "you and Kwame" says who helps).
      const told = others.length === 0 && named[3] === ',' ? youTold(rest, s, people) : null;
      if (told) return { kind: 'request', task: told, owner };
      const asked = new RegExp(String.raw`(?:^|[,;]\s*|\b)${ASK}(.+)$`).exec(rest);
      if (asked && taskLike(asked[1]!))
        return { kind: 'request', task: toBase(clean(s, asked[1]!), s), owner, ...also };
      const needed = NEED_YOUR.exec(rest) ?? NEED_FROM_YOU.exec(rest);
      if (needed) return { kind: 'request', task: sendTask(s, needed[1]!), owner, ...also };
      return null;
    }
    // "It goes on the agenda, and Callum, bring the guidance with you": a name, a comma and an
    // imperative after "and" or a comma, mid-sentence.
    const midway = new RegExp(String.raw`(?:[,;]\s*|\band\s+)(${names}),\s+(.+)$`).exec(bare);
    if (midway && imperative(midway[2]!, s, people))
      return { kind: 'request', task: clean(s, midway[2]!), owner: people.find(midway[1]!) };
    // "…we can start in June raj can you get the app configured": a name right before the ask,
    // mid-sentence (speech-to-text does not split sentences).
    const inside = new RegExp(String.raw`\b(${names}),? ${ASK}(.+)$`).exec(bare);
    if (inside && taskLike(inside[2]!)) {
      return { kind: 'request', task: toBase(clean(s, inside[2]!), s), owner: people.find(inside[1]!) };
    }
    // "Could you take a look, Priya?"
    const trailing = new RegExp(String.raw`^${ASK}(.+?),\s*(${names})\s*[?.!]*$`).exec(bare);
    if (trailing && taskLike(trailing[1]!)) {
      return { kind: 'request', task: toBase(clean(s, trailing[1]!), s), owner: people.find(trailing[2]!) };
    }
    // "I'd like everyone to read it…", "I'd like Rosa to…"
    const like = new RegExp(
      String.raw`\bi'd like (everyone|everybody|all of you|you all|you|${names}) to (.+)$`,
    ).exec(bare);
    if (like && taskLike(like[2]!)) {
      const who = like[1]!;
      const owner =
        who === 'you'
          ? previousSpeaker
          : /^(everyone|everybody|all of you|you all)$/.test(who)
            ? null
            : people.find(who);
      return { kind: 'request', task: clean(s, like[2]!), owner };
    }
  }
  // "Can you send me the list?" to whoever spoke last.
  const unnamed = new RegExp(String.raw`^${ASK}(.+)$`).exec(bare);
  if (unnamed && previousSpeaker && taskLike(unnamed[1]!)) {
    return { kind: 'request', task: toBase(clean(s, unnamed[1]!), s), owner: previousSpeaker };
  }
  const needed = NEED_YOUR.exec(bare);
  if (needed && previousSpeaker)
    return { kind: 'request', task: sendTask(s, needed[1]!), owner: previousSpeaker };
  return null;
}

/**
 * "Send me the figures for March.": a task said as a bare imperative, to nobody by name. Alone it
 * is no action item (it may be advice); answered by "Will do." it is one, for whoever answered.
 */
export function imperativeTask(s: Sentence, people?: People): string | null {
  const bare = s.lower.replace(/\s+/g, ' ').trim().replace(new RegExp(LEAD), '');
  if (bare.endsWith('?') || !imperative(bare, s, people)) return null;
  return clean(s, bare);
}

/** A task, not a question about the meeting itself nor a bare "do" ("please do"). */
function taskLike(task: string): boolean {
  return !IN_MEETING.test(task) && !NOT_A_TASK.test(task) && task.trim().split(/\s+/).length >= 2;
}

/**
 * A word the tagger reads as a noun after a name or "and" ("Joanne, log it…", "Declan, call them
 * this morning", "And order two more…") is a verb when an object follows it at once: a noun is
 * not followed by "it", "them" or an article.
 */
const OBJECT_NEXT =
  /^(?:it|them|him|her|me|us|the|a|an|my|your|our|his|their|some|two|three|four|five|six|ten)$/;

/** A verb of PRESENT_ANY: tagged a base-form verb, not a state ("go through" is a task). */
function presentTask(s: Sentence, verb: string): boolean {
  if (STATE_VERB.test(verb) && !(verb === 'go' && /\bi go (?:through|over)\b/.test(s.lower))) return false;
  const token = s.tokens.find((t) => t.lower === verb);
  return !!token && token.pos === 'VERB' && token.lemma === token.lower;
}

/** "your lists by the 1st" → "Send your lists by the 1st". */
function sendTask(s: Sentence, needed: string): string {
  const what = clean(s, needed);
  return `Send ${what.charAt(0).toLowerCase()}${what.slice(1)}`;
}

/** "send the link…": the sentence goes on with a verb in its base form (wink's lemma = word). */
function imperative(rest: string, s: Sentence, people?: People): boolean {
  const [first, next] = rest.split(/[\s,]+/);
  if (
    !first ||
    /^(you|your|you're|i|we|let's|thanks|thank|what|how|why|where|when|who|is|are|do|does)$/.test(first)
  )
    return false;
  const token = s.tokens.find((t) => t.lower === first);
  if (!token || token.lemma !== token.lower || !taskLike(rest)) return false;
  if (token.pos === 'VERB') return true;
  // "Retest the pool at half seven": a verb the tagger does not know, capitalised at the start,
  // reads as a name; it is a verb when an object follows at once and nobody is called so.
  const unknown =
    token.pos === 'PROPN' && !!people && people.find(first) === null && rest.charAt(first.length) === ' ';
  // "Amir, coffee the usual way?": in a question the noun stays a noun.
  return (
    (token.pos === 'NOUN' || unknown) && !!next && OBJECT_NEXT.test(next) && !s.lower.trim().endsWith('?')
  );
}

/**
 * After "<Name>, ": "you prepare the documents" / "you and Kwame swap the ropes" (a base-form
 * verb, not a state: "you know the numbers", "you wrote it" tell), or "you can call them…?" (asked;
 * "you could organise…" only suggests). The task, or null.
 */
function youTold(rest: string, s: Sentence, people: People): string | null {
  const m = /^you (?:and ([a-z][\w'-]*) )?(can )?([a-z]+)\b(.*)$/.exec(rest);
  if (!m) return null;
  const [, helper, can, verb, after] = m;
  if (helper && people.find(helper) === null) return null;
  const asked = s.lower.trim().endsWith('?') || /\bplease\b/.test(rest);
  if (can ? !asked : asked || RECURRING.test(after!)) return null;
  // "move" is a state verb only for motions ("I move that…").
  if ((verb !== 'move' && STATE_VERB.test(verb!)) || NOT_TOLD.test(`${verb}${after}`)) return null;
  const token = s.tokens.find((t) => t.lower === verb);
  if (!token || token.lemma !== token.lower) return null;
  // After "you and Kwame" the tagger reads the verb as a noun: an object after it says otherwise.
  const object = OBJECT_NEXT.test(after!.trim().split(/[\s,]+/)[0] ?? '');
  if (token.pos !== 'VERB' && !(token.pos === 'NOUN' && object)) return null;
  const task = `${verb}${after}`;
  return taskLike(task) ? clean(s, task) : null;
}
/**
 * "you make a good point", "you win", "you hold the equipment budget" (why they are asked what
 * follows): said of someone, not a task.
 */
const NOT_TOLD =
  /^(?:make (?:a |an |some )?(?:good |fair |valid |strong )?points?\b|win|lose|owe|hold|own)\b/;

/** "adding that…" → "add that…", "updating the docs" → "update the docs" (wink's lemma). */
function toBase(task: string, s: Sentence): string {
  const first = (task.split(/\s+/)[0] ?? '').toLowerCase();
  if (!first.endsWith('ing')) return task;
  const token = s.tokens.find((t) => t.lower === first);
  if (!token || token.lemma === token.lower) return task;
  return `${token.lemma.charAt(0).toUpperCase()}${token.lemma.slice(1)}${task.slice(first.length)}`;
}

/**
 * The task as said (the rules read the lower-cased sentence; the task keeps the speaker's
 * capitals), without end punctuation, first letter capital.
 */
function clean(s: Sentence, task: string): string {
  const at = s.lower.lastIndexOf(task);
  const said = at >= 0 ? s.text.slice(at, at + task.length) : task;
  const t = said.replace(/[?.!,;:\s]+$/, '').trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** "handle that", "look at it", "do it by Monday": the task is named elsewhere. */
export function anaphoric(task: string): boolean {
  return /^\w+(?: (?:at|on|up|over|into|care of|with|to))? (?:it|that|this|them|those|that one|this one)\b/i.test(
    task,
  );
}
