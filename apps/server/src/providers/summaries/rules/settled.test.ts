import { describe, expect, it } from 'vitest';
import { summarizeTalk } from './talk.test-helper.js';

// Decisions a group reaches over several turns without a decision word (settled.ts), and the
// small widenings of choices.ts, confirmations.ts and decision-phrases.ts made with them. Every
// talk here is invented for the test.
const MEETING_DATE = '2026-03-04';

async function decisions(talk: string) {
  const summary = await summarizeTalk(talk, MEETING_DATE);
  return summary.decisions.map((d) => ({ line: d.sources[0], text: d.text }));
}

describe('a proposal taken up and said back', () => {
  it('takes the plan said after an assent of its own ("I like that. …")', async () => {
    expect(
      await decisions(`Omar: The hall is booked solid in May.
Lin: We could hold the spring fair in the church garden instead, with the hall as a rain plan.
Pat: I like that. Church garden for the fair, the hall as the rain plan.`),
    ).toEqual([{ line: '3', text: 'Church garden for the fair, the hall as the rain plan' }]);
  });

  it('takes the plan opened by assent words, after a question put to the room', async () => {
    expect(
      await decisions(`Ada: Can we open the new clinic on Saturdays as well?
Ben: Staffing is fine, two nurses already asked for weekend shifts.
Cara: Okay, the clinic opens on Saturdays from April.`),
    ).toEqual([{ line: '3', text: 'The clinic opens on Saturdays from April' }]);
    expect(
      await decisions(`Ada: I'd keep the kiosk closed until the new till arrives.
Ben: Agreed, the kiosk is closed until the till is here.`),
    ).toEqual([{ line: '2', text: 'The kiosk is closed until the till is here' }]);
  });

  it('takes a short verbless plan after "Agreed." or "Yeah, okay."', async () => {
    expect(
      await decisions(`Noor: I think we want comments on, but for members only.
Iris: Agreed. Members only.`),
    ).toEqual([{ line: '2', text: 'Members only' }]);
    // A participle alone ("Moderated only.") reads as a past verb, and is left out.
  });

  it('takes a plan that the next speaker only assents to', async () => {
    expect(
      await decisions(`Kim: Do we fly the juniors or put them on the coach?
Raf: Coach for the juniors, flights for the coaches and staff.
Kim: Fine by me.`),
    ).toEqual([{ line: '2', text: 'Coach for the juniors, flights for the coaches and staff' }]);
  });

  it('leaves out a reason, a view, a status report and a task accepted', async () => {
    // A reason after "I like that".
    expect(
      await decisions(`Lin: We could drop the second reminder email.
Pat: I like that. Fewer emails means fewer complaints.`),
    ).toEqual([]);
    // A view after assent words.
    expect(
      await decisions(`Lin: Should we price the workshop at forty?
Pat: Yeah, forty is too cheap for a full day.`),
    ).toEqual([]);
    // A day given for a task someone was asked to do.
    expect(
      (
        await decisions(`Pat: Lin, can you send the draft to the printers before the weekend?
Lin: Yes, Friday works.`)
      ).filter((d) => d.line === '2'),
    ).toEqual([]);
    // A plan said back with no proposal or question before it to take up.
    expect(
      await decisions(`Lin: The printers called this morning.
Pat: Okay, the posters arrive on Monday.`),
    ).toEqual([]);
  });
});

describe('a thing ruled out', () => {
  it('takes "not happening" and "off the table" as decisions', async () => {
    expect(
      await decisions(`Sam: The second warehouse would cost us eighty thousand.
Jo: Then it's not happening this year.`),
    ).toEqual([{ line: '2', text: "Then it's not happening this year" }]);
    expect(
      await decisions(`Sam: And the loyalty card?
Jo: The loyalty card is off the table until we have a till that supports it.`),
    ).toEqual([
      { line: '2', text: 'The loyalty card is off the table until we have a till that supports it' },
    ]);
  });

  it('takes "Not this year." answering a proposal question, and not a bare "No."', async () => {
    expect(
      await decisions(`Sam: Should we run the summer school again?
Jo: Not this year. Half the tutors are on leave.`),
    ).toEqual([{ line: '2', text: 'Not this year (Should we run the summer school again)' }]);
    expect(
      await decisions(`Sam: Did the summer school make money?
Jo: Not this year.`),
    ).toEqual([]);
  });
});

describe('a question put off to a named time or forum', () => {
  it('takes a deferral with a named meeting, date or week', async () => {
    expect(
      await decisions(`Ray: The new van is more than I can sign off.
Ray: It goes to the finance committee on the 14th.`),
    ).toEqual([{ line: '2', text: 'It goes to the finance committee on the 14th' }]);
    expect(
      await decisions(`Ana: Could the choir use the side room on Sundays?
Ray: I don't know. I'll ask the vicar, and we'll come back to it at the April meeting.`),
    ).toEqual([{ line: '2', text: "I'll ask the vicar, and we'll come back to it at the April meeting" }]);
  });

  it('leaves out a deferral with no time, and a motion that is only put', async () => {
    expect(
      await decisions(`Ana: What about the garden shed?
Ray: Let's come back to that.`),
    ).toEqual([]);
    expect(
      (
        await decisions(`Ana: Nobody has seen the survey yet.
Ray: Then I'll take a motion to table it until June.`)
      ).filter((d) => d.line === '2'),
    ).toEqual([]);
  });
});

describe('closing widenings', () => {
  it('takes "Fine, X then." naming what another speaker proposed earlier in the turn', async () => {
    expect(
      await decisions(`Eli: Two hundred is too many for the hall.
Mo: A hundred and fifty, then? We had ninety last spring.
Eli: Fine, a hundred and fifty then.`),
    ).toEqual([{ line: '3', text: expect.stringMatching(/^Fine, a hundred and fifty then/) }]);
  });

  it('takes a bare "Go with …" and a bare "we <verb> it" after a check for objections', async () => {
    expect(
      await decisions(`Tom: The cheaper quote drops the weekend callout.
Uma: We don't need weekend callouts. Go with the cheaper quote.`),
    ).toEqual([{ line: '2', text: 'Go with the cheaper quote' }]);
    expect(
      await decisions(`Tom: The school offered us the gym for free if we clean up after.
Uma: Any objections to taking the gym? No. We take it.`),
    ).toEqual([{ line: '2', text: expect.any(String) }]);
  });
});
