import * as chrono from 'chrono-node';

/**
 * Due dates from what was said, relative to the meeting's date, as YYYY-MM-DD. What counts
 * (bench/meetings/README.md): a date, a weekday, today/tonight/this afternoon/after this call,
 * tomorrow, end of the month, end of (next) week (its Friday: work weeks end on Friday, where
 * chrono says Saturday). Vague periods ("this week", "next week", "in a day or two"), bare clock
 * times ("at 14:02") and dates before the meeting are not due dates — except that a time of day
 * in a task ("I'll call her at two", "after handover", "at lunchtime") is on the meeting's day,
 * when the caller says the text is a task (`{ task: true }`).
 */
const SAME_DAY =
  /\b(today|tonight|this (morning|afternoon|evening)|end of (the )?day|eod|after (this|the) (call|meeting)|right after this)\b/;
const VAGUE =
  /^(this|next|last|the following) (week|month|quarter|year)$|^(in )?(a|the) (few|couple of) (days|weeks)$/;
const END_OF_WEEK = /\bend of (this |the |next )?week\b/;
const PAST = /\b(?:last|previous|yesterday|ago|earlier)\b/;
/** "seven days", "half a day": a length of time, not a date ("in two weeks" is one). */
const DURATION =
  /^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|half an?|a few|a couple of)\s+(?:days?|weeks?|months?|hours?|minutes?)$/;
/** "the 23rd": chrono needs a month; the next such day on or after the meeting. */
const ORDINAL_DAY = /\bthe (\d{1,2})(st|nd|rd|th)\b/;

/** "in a day or two", "a week or so", "for the next two weeks": a rough length or a span, so no date (chrono would read "in a day"). */
const ROUGHLY =
  /\b(?:in |within )?(?:a|one|a couple of|a few) (?:days?|weeks?)(?: or (?:two|three|so))\b|\b(?:in|within) a (?:day|week) or so\b|\b(?:for |over |in |during )?the (?:next|coming|following) (?:few |couple of |two |three |four |\d+ )?(?:days|weeks|months)\b/g;
/** What chrono may find that is no date at all ("the M" of "the M and E designer"). */
const DATE_WORD =
  /\d|\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b|\b(?:today|tonight|tomorrow|morning|afternoon|evening|noon|midnight|week|month|year|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|first|second|third|fourth|fifth|tenth|twentieth|thirtieth)\b/;
const HOUR = String.raw`(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})(?:[:.]\d{2})?(?:\s?(?:am|pm|a\.m\.|p\.m\.|o'clock|thirty|fifteen|forty-five))?`;
/**
 * A time of day with no day: "at two", "by noon", "around 3pm", "at lunchtime", "after handover".
 * The hour must end the phrase ("at two sites" is not a time).
 */
const TIME_OF_DAY = new RegExp(
  String.raw`\b(?:at|by|around|before|until|till|from|after|about) (?:${HOUR}(?=\s*(?:$|[,.;!?]|(?:and|or|if|when|so|then|sharp|latest|today|tonight|this|before|after|for|on|at)\b))|noon|midday|lunch ?time|lunch|(?:the )?end of (?:the )?(?:day|shift)|close of business|half past \w+|quarter (?:past|to) \w+)|\bafter (?:the )?(?:handover|hand-over|stand-?up|ward round|rounds|this|class|school|work|(?:my|the|your) shift)\b(?! (?:week|month|year|sprint|quarter|release|launch|one))`,
);

const casual = chrono.casual.clone();

export function dueDate(text: string, meetingDate: string, opts: { task?: boolean } = {}): string | null {
  text = text.replace(ROUGHLY, ' ');
  const lower = text.toLowerCase();
  const ref = atNoon(meetingDate);
  if (!ref) return null;
  const found: Date[] = [];

  const eow = END_OF_WEEK.exec(lower);
  if (eow) found.push(fridayOf(ref, eow[1]?.trim() === 'next' ? 1 : 0));

  for (const r of casual.parse(text, { instant: ref, timezone: 0 }, { forwardDate: true })) {
    const said = r.text.toLowerCase();
    if (!DATE_WORD.test(said)) continue;
    if (VAGUE.test(said) || END_OF_WEEK.test(said) || DURATION.test(said)) continue;
    // forwardDate would move "last Thursday" to the coming one: a past day is never a due date.
    if (PAST.test(said)) continue;
    // "this morning" said at noon is still the meeting's day (chrono's forwardDate moves it on).
    if (SAME_DAY.test(said)) {
      found.push(ref);
      continue;
    }
    const knowsDay =
      r.start.isCertain('day') ||
      r.start.isCertain('weekday') ||
      SAME_DAY.test(said) ||
      /\btomorrow\b/.test(said);
    if (!knowsDay) continue; // a bare clock time ("at 14:02") or a month alone
    found.push(r.start.date());
  }
  if (SAME_DAY.test(lower)) found.push(ref);

  const ordinal = ORDINAL_DAY.exec(lower);
  if (ordinal && found.length === 0) {
    const day = Number(ordinal[1]);
    if (day >= 1 && day <= 31) found.push(nextDayOfMonth(ref, day));
  }

  // Only when nothing names a day: "tomorrow around two" is tomorrow.
  if (found.length === 0 && opts.task && TIME_OF_DAY.test(lower)) found.push(ref);

  const due = found.find((d) => d.getTime() >= ref.getTime() - 12 * 3600_000);
  return due ? iso(due) : null;
}

/** The date an item refers to with "by then"/"before then": the last date said before it. */
export function lastDateIn(texts: string[], meetingDate: string): string | null {
  for (let i = texts.length - 1; i >= 0; i -= 1) {
    const d = dueDate(texts[i]!, meetingDate);
    if (d) return d;
  }
  return null;
}

function atNoon(date: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12)) : null;
}

function fridayOf(ref: Date, weeksAhead: number): Date {
  const d = new Date(ref);
  const toFriday = (5 - d.getUTCDay() + 7) % 7;
  d.setUTCDate(d.getUTCDate() + toFriday + 7 * weeksAhead);
  return d;
}

function nextDayOfMonth(ref: Date, day: number): Date {
  const d = new Date(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth(), day, 12));
  if (d.getUTCDate() !== day || d.getTime() < ref.getTime() - 12 * 3600_000) {
    return new Date(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth() + 1, day, 12));
  }
  return d;
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
