import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../transcript-file.js';
import { dueDate } from './dates.js';
import { RulesSummarizer } from './index.js';

// These tests are of the hand-written rules; the classifier that takes decisions by default is
// tested in ../learned/learned.test.ts.
const summarizer = new RulesSummarizer({ decisions: 'rules' });

/** A Wednesday: "by Friday" is the 14th, "next Tuesday" the 18th, "end of the month" the 31st. */
const MEETING_DATE = '2026-03-11';
const PLANNING = `Nora: Okay, quick planning for the pricing page. The draft copy is done.
Ivo: The screenshots are outdated though, they still show the old dashboard.
Nora: Ivo, could you replace the screenshots by Friday?
Ivo: Sure, I'll do it after lunch.
Kim: Someone should check the translations before we publish.
Nora: Kim, can you handle that?
Kim: Yes, I'll have them checked by next Tuesday.
Ivo: Should we keep the annual discount at twenty percent?
Kim: Customers like it, and finance is fine with it.
Nora: Okay, we'll go with twenty percent and drop the monthly promo code.
Ivo: I'm going to write the changelog entry before the end of the month.
Nora: Great, thanks everyone.`;

const CHIT_CHAT = `Ana: Morning! How was everyone's weekend?
Ben: Pretty quiet. We finally watched that documentary about octopuses.
Ana: Oh, the one with the diver? I loved it.
Ben: Yes, the ending got me. Did you go anywhere?
Ana: Just the farmers market. The strawberries are back already.
Ben: Lucky. Ours won't be in season for a month.
Ana: Anyway, I need more coffee before the next call.
Ben: Same here, see you later.`;

describe('rules summariser', () => {
  it('finds action items with owners, due dates and source lines, and the decision', async () => {
    const summary = await summarizer.summarize({
      lines: parseTranscript(PLANNING, MEETING_DATE),
      participants: ['Nora Petrova', 'Ivo Stan', 'Kim Lee'],
      meetingDate: MEETING_DATE,
    });
    const items = summary.actionItems.map(({ owner, due, sources }) => ({ owner, due, sources }));
    expect(items).toEqual([
      { owner: 'Ivo', due: '2026-03-13', sources: ['3', '4'] },
      // "Someone should…" taken by the person asked: the task, her name, and her date.
      { owner: 'Kim', due: '2026-03-17', sources: ['5', '6', '7'] },
      { owner: 'Ivo', due: '2026-03-31', sources: ['11'] },
    ]);
    expect(summary.actionItems[0]!.text).toMatch(/replace the screenshots/i);
    expect(summary.actionItems[1]!.text).toMatch(/check the translations/i);
    expect(summary.actionItems[2]!.text).toMatch(/changelog/i);

    expect(summary.decisions).toHaveLength(1);
    expect(summary.decisions[0]!.text).toMatch(/twenty percent/);
    expect(summary.decisions[0]!.sources).toEqual(['10']);

    expect(summary.keyPoints.length).toBeGreaterThan(0);
    for (const p of summary.keyPoints) expect(Number(p.sources[0])).toBeGreaterThan(0);
    expect(summary.summary).toMatch(/3 action items and 1 decision/);
  });

  it('finds no action items and no decisions in small talk', async () => {
    const summary = await summarizer.summarize({
      lines: parseTranscript(CHIT_CHAT, MEETING_DATE),
      participants: [],
      meetingDate: MEETING_DATE,
    });
    expect(summary.actionItems).toEqual([]);
    expect(summary.decisions).toEqual([]);
    expect(summary.summary).toMatch(/No action items and no decisions\.$/);
  });

  it('answers an empty meeting with empty lists', async () => {
    const summary = await summarizer.summarize({ lines: [], participants: [], meetingDate: MEETING_DATE });
    expect(summary).toEqual({
      summary: 'Nothing was said in this meeting.',
      keyPoints: [],
      actionItems: [],
      decisions: [],
    });
  });

  it('reads the same meeting without punctuation or capitals, as speech-to-text writes it', async () => {
    const lines = parseTranscript(PLANNING, MEETING_DATE).map((l) => ({
      ...l,
      text: l.text
        .toLowerCase()
        .replace(/[^a-z0-9' ]+/g, ' ')
        .trim(),
    }));
    const summary = await summarizer.summarize({ lines, participants: [], meetingDate: MEETING_DATE });
    expect(summary.actionItems.map((a) => [a.owner, a.due])).toEqual([
      ['Ivo', '2026-03-13'],
      ['Kim', '2026-03-17'],
      ['Ivo', '2026-03-31'],
    ]);
  });
});

describe('due dates', () => {
  it.each([
    ['by Friday', '2026-03-13'],
    ['next Tuesday', '2026-03-17'],
    ['end of the month', '2026-03-31'],
    ['on March 20th', '2026-03-20'],
    ['this afternoon', '2026-03-11'],
    ['right after this call', '2026-03-11'],
    ['tomorrow morning', '2026-03-12'],
    ['end of next week', '2026-03-20'],
    ['by the 23rd', '2026-03-23'],
    ['by the 2nd', '2026-04-02'],
    ['next week', null],
    ['it takes seven days', null],
    ['at 14:02 the deploy went out', null],
    ['last Thursday', null],
    ["I'll book it for this week", null],
    ['I can have it ready in a day or two', null],
    ['send me the rota for the next two weeks', null],
    ['ask the M and E designer', null],
    // A time of day is a due date only in a task (below): here it is when something happened.
    ['the results came back at six', null],
  ])('%s → %s', (text, due) => {
    expect(dueDate(text, MEETING_DATE)).toBe(due);
  });

  it.each([
    ["I'll ring the plumber at two.", '2026-03-11'],
    ["I'll call the bank after handover.", '2026-03-11'],
    ['I can chase the courier at lunchtime.', '2026-03-11'],
    ["I'll send the invoice by end of day.", '2026-03-11'],
    ["If the parts aren't here by noon I'll cancel the order.", '2026-03-11'],
    ["I'll be there tomorrow around two.", '2026-03-12'],
    ["I'll move the boxes at two sites next week.", null],
  ])('in a task: %s → %s', (text, due) => {
    expect(dueDate(text, MEETING_DATE, { task: true })).toBe(due);
  });
});

async function itemsOf(transcript: string) {
  const summary = await summarizer.summarize({
    lines: parseTranscript(transcript, MEETING_DATE),
    participants: [],
    meetingDate: MEETING_DATE,
  });
  return summary.actionItems;
}

describe('action items read with the lines around them', () => {
  it('takes a due date said in the next sentence ("That\'s the 20th.")', async () => {
    const items = await itemsOf(`Ada: I'll put the new rota on the noticeboard.
Bo: Thanks. Can you have that done before the volunteers' evening? That's the 20th.
Ada: Sure.`);
    expect(items.map((a) => [a.owner, a.due])).toEqual([['Ada', '2026-03-20']]);
    expect(items[0]!.text).toMatch(/rota on the noticeboard/);
  });

  it('gives a thin answer the question it answers, and its date', async () => {
    const items = await itemsOf(`Ada: Can you tell me about the van by Monday?
Bo: Yes, I'll text you.`);
    expect(items).toHaveLength(1);
    expect(items[0]!).toMatchObject({ owner: 'Bo', due: '2026-03-16' });
    expect(items[0]!.text).toMatch(/^Text you \(.*van/);
  });

  it('lets "I\'ll ask." take the open task it answers', async () => {
    const items = await itemsOf(`Ada: Someone should probably confirm the hall booking with the caretaker.
Bo: I see him on Thursday, I'll ask.`);
    expect(items).toHaveLength(1);
    expect(items[0]!.owner).toBe('Bo');
    expect(items[0]!.text).toMatch(/^Confirm the hall booking with the caretaker/);
  });

  it('does not take "I can live with that" for a task', async () => {
    expect(
      await itemsOf(`Ada: The stall opens at nine and closes at one.
Bo: Okay, I can live with that.`),
    ).toEqual([]);
  });

  it('takes a bare imperative answered by "Will do" as a request to whoever answered', async () => {
    const items = await itemsOf(`Ada: Send me the list of allergies for the Saturday lunch.
Bo: Will do, by end of day.`);
    expect(items.map((a) => [a.owner, a.due, a.sources])).toEqual([['Bo', '2026-03-11', ['1', '2']]]);
    expect(items[0]!.text).toMatch(/list of allergies/);
  });

  it('keeps "I\'ll escalate it" apart from the same owner\'s earlier item when someone spoke between', async () => {
    const items = await itemsOf(`Bo: I'll update the volunteer sheet tonight.
Ada: Last thing, the freezer alarm went off twice. The landlord said he'd send someone today.
Bo: If nobody has come by noon I'll escalate it.`);
    expect(items.map((a) => [a.owner, a.sources])).toEqual([
      ['Bo', ['1']],
      ['Bo', ['3']],
    ]);
    expect(items[1]!.due).toBe('2026-03-11');
  });

  it('takes an offer only when the next speaker takes it up', async () => {
    const taken = await itemsOf(`Ada: I could see if the printer can do the posters in colour.
Bo: Yes, please, as long as it stays under fifty.`);
    expect(taken.map((a) => a.owner)).toEqual(['Ada']);
    expect(taken[0]!.text).toMatch(/printer can do the posters/);
    expect(
      await itemsOf(`Ada: I could see if the printer can do the posters in colour.
Bo: Colour never looks right on that paper.`),
    ).toEqual([]);
  });

  it('takes "I\'ll see if I can…" as the try, and not a task the speaker hands on', async () => {
    const items = await itemsOf(`Ada: I'll see if I can find out why the permit is late.
Bo: I can write the newsletter again, but I'd rather someone else had a go this time.`);
    expect(items.map((a) => [a.owner, a.text])).toEqual([['Ada', 'Find out why the permit is late']]);
  });
});

async function decisionsOf(transcript: string): Promise<Array<{ text: string; sources: string[] }>> {
  const summary = await summarizer.summarize({
    lines: parseTranscript(transcript, MEETING_DATE),
    participants: [],
    meetingDate: MEETING_DATE,
  });
  return summary.decisions;
}

describe('decisions confirmed by the conversation', () => {
  it('takes "X it is" as a choice, but not a clause that ends in "it is"', async () => {
    const found = await decisionsOf(`Ada: Blue or green for the stage banner?
Bo: Blue reads better from the back.
Ada: Okay, the blue one it is, and we print fifty of them.`);
    expect(found).toHaveLength(1);
    expect(found[0]!.text).toMatch(/blue one it is/i);
    expect(found[0]!.sources).toEqual(['3']);

    expect(
      await decisionsOf(`Ada: Is that noise the projector?
Bo: I'd rather wait until we know what it is.`),
    ).toEqual([]);
  });

  it('takes a present-tense "we" plan after "okay" that closes a discussion', async () => {
    const found = await decisionsOf(`Ada: The roof leak needs a fix before winter.
Bo: The quote was nine hundred, which is most of the reserve.
Ada: Okay, we pay for the roof out of the building reserve.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
    expect(found[0]!.text).toMatch(/pay for the roof/);
  });

  it('does not take "okay, we start with…" or a reply to a greeting for a plan', async () => {
    expect(
      await decisionsOf(`Ada: Morning all, thanks for joining.
Bo: Morning.
Ada: Okay, we start with the budget and then the rota.
Bo: The budget slides are in the shared folder already.
Ada: Okay, we look at the spending figures first.`),
    ).toEqual([]);
  });

  it('does not take an "okay, we" report of the past or of a need', async () => {
    expect(
      await decisionsOf(`Ada: How did the raffle go?
Bo: Okay, we tried a raffle last spring and sold forty tickets.
Ada: Okay, we need more volunteers for the stall.`),
    ).toEqual([]);
  });

  it('takes the plan stated right after a consensus check', async () => {
    const found = await decisionsOf(`Ada: I'd move the deadline to the end of the month.
Bo: That gives the printers enough time.
Ada: Anyone against? No? Okay, deadline on the 31st, and late entries go to the spring issue.`);
    expect(found).toHaveLength(1);
    expect(found[0]!.text).toMatch(/deadline on the 31st/i);
  });

  it('takes "okay, then …" followed by a list as the conclusion of a discussion', async () => {
    const found = await decisionsOf(`Ada: Can we paint the hall before the carpet goes in?
Bo: The walls yes, the ceiling needs the scaffold we don't have yet.
Ada: Okay, then walls this week, and the ceiling waits for the scaffold.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
  });

  it('takes an answer that repeats the verb of a "should we…?" proposal', async () => {
    const found = await decisionsOf(`Ada: Should we rerun the survey with the new questions?
Bo: Yes, rerun it in April with the shorter form.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
    expect(
      await decisionsOf(`Ada: Should we rerun the survey with the new questions?
Bo: Yes, good question, I wonder about that too.`),
    ).toEqual([]);
  });

  it('takes "no X this time" and "let\'s not X" as choices, one per pointing pair', async () => {
    const found = await decisionsOf(`Ada: Last year the live band took a third of the budget.
Bo: Let's not do that again.
Ada: Yeah, no live band this year.
Bo: And the photo booth?
Ada: Let's not do the photo booth for this party either.`);
    expect(found.map((d) => d.sources)).toEqual([['2', '3'], ['5']]);
    expect(found[0]!.text).toMatch(/no live band/i);
  });

  it('leaves out "let\'s not … yet", a decision put off', async () => {
    expect(await decisionsOf(`Ada: Let's not pick a caterer yet, the numbers are still moving.`)).toEqual([]);
  });

  it('takes "we won\'t" and "we go with" as decisions, but not a condition', async () => {
    const found = await decisionsOf(`Ada: We won't print the programme this year, it goes online.
Bo: So we go with the smaller venue on the river.
Ada: Then there's a second day, which we won't have unless the sponsor signs.`);
    expect(found.map((d) => d.sources)).toEqual([['1'], ['2']]);
  });

  it('does not take a meeting opener such as "let\'s do this" for a decision', async () => {
    expect(await decisionsOf(`Ada: Okay, let's do this. First the budget, then the rota.`)).toEqual([]);
    const agreed = await decisionsOf(`Ada: What if we move the stall to the market square?
Bo: Fine, let's do that.`);
    expect(agreed).toHaveLength(1);
    expect(agreed[0]!.text).toMatch(/market square/);
  });

  it('takes a bare approval of a proposal, but not of how to run the meeting', async () => {
    const found = await decisionsOf(`Bo: I'd like to move the two testers onto the checkout flow.
Ada: Go ahead.`);
    expect(found.map((d) => [d.sources, /checkout flow/.test(d.text)])).toEqual([[['2'], true]]);
    expect(
      await decisionsOf(`Ada: Let's go round the table, it was a long week.
Bo: Go for it.`),
    ).toEqual([]);
  });

  it('takes "agreed, <rule>", but not agreeing with a view', async () => {
    const found = await decisionsOf(`Bo: Nobody should edit the price list while the audit runs.
Ada: Agreed, nobody edits the price list until the auditors leave.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
    expect(await decisionsOf(`Bo: Agreed, a week is too long for a reply.`)).toEqual([]);
  });

  it('takes "that\'s a no on …", "the answer is yes to …", a standing plan and a new rule', async () => {
    const found = await decisionsOf(`Ada: So that's a no on the second warehouse this year.
Bo: And the answer is yes to the trial with the courier.
Ada: Then the plan stands, we open the shop on the first.
Bo: From tomorrow, every return gets a photo before it is shelved.`);
    expect(found.map((d) => d.sources)).toEqual([['1'], ['2'], ['3'], ['4']]);
  });

  it('takes "final answer" and "that\'s the fallback" as confirming the choice before them', async () => {
    const found = await decisionsOf(`Ada: The cake is lemon and almond. That's it. Final answer.
Bo: If the van is late we use the hire car. That's the fallback.`);
    expect(found.map((d) => d.text)).toEqual([
      'The cake is lemon and almond',
      'If the van is late we use the hire car',
    ]);
  });

  it('leaves out parking a question, closing the meeting and "we\'ll work out whether…"', async () => {
    expect(
      await decisionsOf(`Ada: It's a big question. Let's park it.
Bo: We'll work out whether to hire once we see the orders.
Ada: We'll have a discussion after the figures.
Bo: Let's leave it there then. Thanks, all.`),
    ).toEqual([]);
  });

  it('takes a vote result, a reversal, a postponement and a plan put to the room', async () => {
    const found = await decisionsOf(`Ada: Five for, two against, so that passes: the café closes on Mondays.
Bo: We take back the decision from last spring: from June, dogs are allowed in the garden.
Ada: We postpone the roof repair to the September meeting.
Bo: The kitchen refit holds until the grant comes through.
Ada: Okay. The fair is on the 9th, in the school yard. Agreed?
Bo: We're not renaming the shop. Not this year.`);
    expect(found.map((d) => d.sources)).toEqual([['1'], ['2'], ['3'], ['4'], ['5'], ['6']]);
  });

  it('leaves out a preference to wait, a past decision, and "no need to pick now"', async () => {
    expect(
      await decisionsOf(`Ada: I'd rather wait until we know what it costs.
Bo: As you know, we decided in March to close the east door.
Ada: We'll see them all at the fair anyway, so no need to pick now.
Bo: Because if we're not printing it, it should at least go online.
Ada: It carries over to next month, nothing is lost.`),
    ).toEqual([]);
  });

  it('takes a present-tense plan that someone else answers with a bare "Agreed."', async () => {
    const found = await decisionsOf(`Ada: The new boiler still trips twice a day.
Bo: We keep the old one running until the engineer has been.
Cy: Agreed.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
    expect(found[0]!.text).toMatch(/keep the old one running/);
  });

  it('does not take "Agreed." after a view, a question, or with more said in the same turn', async () => {
    expect(
      await decisionsOf(`Ada: That quote is far too expensive for a fence.
Bo: Agreed.
Ada: We could ask the council for a grant?
Bo: Agreed.
Ada: We paint the fence ourselves in May.
Bo: Agreed. Though I said that last year too.`),
    ).toEqual([]);
  });

  it('does not take a side promising a deliverable by a date for a decision', async () => {
    expect(
      await decisionsOf(`Ada: Who is doing the printed programme?
Bo: My team, as always. We'll have a proof on the 22nd, that leaves two days.`),
    ).toEqual([]);
    const found = await decisionsOf(`Ada: We'll move the party to the garden on the 22nd.`);
    expect(found.map((d) => d.sources)).toEqual([['1']]);
  });

  it('takes accepting what the other side asked for', async () => {
    const found = await decisionsOf(`Ada: The caterers asked for access to the kitchen on Friday.
Bo: That's fine, as long as it's after the cleaners.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
  });
});

describe('decisions said by tense, ruling and vote', () => {
  it('takes a plan in the present progressive with a verb that changes what happens', async () => {
    const found = await decisionsOf(`Ada: The evening class only ever gets three people.
Bo: Then we're cancelling the evening class from next term.
Ada: No. We're moving the pottery kiln to the back room instead.`);
    expect(found.map((d) => d.sources)).toEqual([['2'], ['3']]);
    expect(found[0]!.text).toMatch(/cancelling the evening class/);
  });

  it('does not take a progressive that describes what is, or one said as a consequence', async () => {
    expect(
      await decisionsOf(`Ada: We're paying for a van we use twice a month.
Bo: We're waiting on the insurer before anything else.
Ada: Fix the gate, or we're losing chickens every week.`),
    ).toEqual([]);
  });

  it('takes a vote by its outcome, a formal resolution and a unanimous result', async () => {
    const found = await decisionsOf(`Ada: All in favour of the later opening time?
Bo: Three ayes, four noes. The noes have it.
Ada: The motion to sell the minibus fails.
Bo: The trustees resolve to open the garden on Sundays from May.
Ada: Seven for, nobody against, it's unanimous: the fees stay at ten pounds.`);
    expect(found.map((d) => d.sources)).toEqual([['2'], ['3'], ['4'], ['5']]);
  });

  it('takes a ruling, a consensus, a green light and a one-word verdict', async () => {
    const found = await decisionsOf(`Ada: I'm making the call on the launch: we ship the web app alone.
Bo: The consensus is that the newsletter goes monthly.
Ada: Then you have the green light for the second printer, up to six hundred.
Bo: Next, the new cook. Show of hands?
Ada: Everyone liked her in the trial shift. Okay, it's a hire.`);
    expect(found.map((d) => d.sources)).toEqual([['1'], ['2'], ['3'], ['5']]);
    expect(found[0]!.text).toMatch(/^We ship the web app alone$/);
  });

  it('takes keeping things as they are, but not as a condition', async () => {
    const found = await decisionsOf(`Ada: Members asked for a cheaper student rate.
Bo: So we keep the student rate as it is, twelve a month.
Ada: If we leave it unchanged we lose the students.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
  });

  it('leaves out a decision recalled with its time, and a consequence said as "we\'ll"', async () => {
    expect(
      await decisionsOf(`Ada: In March we agreed to close the café on Mondays.
Bo: When the old boiler broke we decided the hall stays shut in January.
Ada: If the fee doubles we'll lose half the members.
Bo: We'll now hear from the treasurer.`),
    ).toEqual([]);
  });

  it('does not take "let\'s" that orders, times or fills the meeting', async () => {
    expect(
      await decisionsOf(`Ada: Let's keep it to half an hour, people have trains.
Bo: Then let's do the rota question now.
Ada: Let's do one more question from the floor.`),
    ).toEqual([]);
  });

  it('takes "Do that." as approving the offer before it', async () => {
    const found = await decisionsOf(`Ada: I can ring the supplier and ask for the blue tiles instead.
Bo: Do that.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
    expect(found[0]!.text).toMatch(/blue tiles/);
  });
});

describe('decisions made across turns', () => {
  it('takes an option named as the choice when someone takes it up, or with "then"', async () => {
    const found = await decisionsOf(`Ada: For the team shirts, navy or bottle green?
Bo: Green shows every stain.
Cy: Navy.
Ada: Fine by me.
Bo: Do we hold the quiz in the hall or the garden?
Cy: The garden floods when it rains.
Bo: The hall, then.`);
    expect(found.map((d) => d.sources)).toEqual([['3', '4'], ['7']]);
    expect(found[0]!.text).toMatch(/^Navy \(For the team shirts, navy or bottle green\?/);
  });

  it('does not take an option that is only leaned towards or judged', async () => {
    expect(
      await decisionsOf(`Ada: Are we printing the flyers on matt or gloss?
Bo: Matt, I think.
Cy: Gloss looks cheap on flyers.
Ada: Agreed, it does.`),
    ).toEqual([]);
  });

  it('takes a plan closed with "then", and "fine, X then" after a counter-proposal', async () => {
    const found = await decisionsOf(`Ada: The flood and the election both want the front page.
Bo: We have the flood pictures already.
Ada: The flood leads, then.
Bo: Could we move the print run to Thursday?
Ada: Fine, Thursday then.`);
    expect(found.map((d) => d.sources)).toEqual([['3'], ['5']]);
  });

  it('does not take "then" that closes a deadline or takes a task', async () => {
    expect(
      await decisionsOf(`Ada: Can you send the minutes by six?
Bo: Make it five, the office shuts early.
Ada: Five, then.
Bo: Who is locking up tonight?
Ada: That's me, then.`),
    ).toEqual([]);
  });

  it('takes "that\'s what we\'ll do" as the proposal it points back at', async () => {
    const found = await decisionsOf(`Ada: I suggest we move the book sale to the spring. Any objections?
Bo: None here.
Cy: Fine with me.
Ada: Then that's what we'll do.`);
    expect(found.map((d) => d.sources)).toEqual([['1', '4']]);
    expect(found[0]!.text).toMatch(/book sale to the spring/);
    expect(
      await decisionsOf(`Ada: We meet at the station at eight.
Bo: That's what we always do.`),
    ).toEqual([]);
  });

  it('takes a question put off to a named time, but not one put off without a time', async () => {
    const found = await decisionsOf(
      `Ada: Let's not choose the caterer tonight. Send me both menus and we'll decide at the March meeting.`,
    );
    expect(found.map((d) => d.sources)).toEqual([['1']]);
    expect(found[0]!.text).toMatch(/caterer.*March meeting/);
    expect(await decisionsOf(`Ada: Let's not choose the caterer tonight. Both menus look fine.`)).toEqual([]);
  });

  it('does not take "agreed" with a view said with a contracted "is"', async () => {
    expect(
      await decisionsOf(`Ada: The car park is a mess after the market.
Bo: Agreed, the car park's a disgrace.
Ada: Agreed, the rota's not working either.`),
    ).toEqual([]);
  });
});

describe('decisions confirmed in the next turn', () => {
  it('takes "then we <verb>" closing a discussion, but not the "then" of a condition', async () => {
    const found = await decisionsOf(`Ada: Nobody knows whether the hall has a licence for music.
Bo: The caretaker thinks so, the council has no record.
Ada: Then we assume it doesn't.
Bo: And what happens if an inspector turns up on the night?
Ada: Then we apologise and turn it off.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
  });

  it('takes a verbless ruling that sets a limit, but not the next topic or an answer', async () => {
    const found = await decisionsOf(`Ada: Parents keep asking to bring siblings to the trip.
Bo: The coach only has forty seats.
Ada: Fine. Pupils only, no siblings.
Bo: Okay. Next, the tuck shop.
Ada: Is the tuck shop open on Fridays?
Bo: Yes. Every Friday, no exceptions.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
  });

  it('takes a yes or no to a should-question when it says what happens', async () => {
    const found = await decisionsOf(`Ada: Should the volunteers wait for the new badges before they start?
Bo: No, they can start on Monday with paper name tags.`);
    expect(found.map((d) => d.sources)).toEqual([['2']]);
    expect(
      await decisionsOf(`Ada: Should we switch the bank account to the credit union?
Bo: Yes, probably, I'd have to look at the fees first.`),
    ).toEqual([]);
  });

  it('takes an offer to the other side that they accept, and a bare yes to a role offered', async () => {
    const found = await decisionsOf(`Ada: Because of the delay, we'd like to refund you the delivery charge.
Bo: I appreciate that.
Bo: We want one person we can call when a van is late.
Ada: I can be that person until the new depot opens.
Cy: Agreed. Ada is your contact for the depot, and the old number still works.`);
    expect(found.map((d) => d.sources)).toEqual([['1'], ['5']]);
    expect(found[1]!.text).toMatch(/^Ada is your contact/);
  });

  it('does not take a bare yes to a question or to an offer of work', async () => {
    expect(
      await decisionsOf(`Ada: I can print the posters tonight.
Bo: Agreed.
Ada: We could ask the school for their hall?
Bo: Agreed.`),
    ).toEqual([]);
  });

  it('takes what follows a change of mind, but not a task the speaker takes back', async () => {
    const found = await decisionsOf(`Ada: The raffle is in the main hall at two.
Ada: Scratch that, the small hall at three.
Bo: On second thought, forget the balloons. Paper streamers only.
Ada: Actually, scratch that, I'll ring the caterer myself.`);
    expect(found.map((d) => d.sources)).toEqual([['2'], ['3']]);
    expect(found[0]!.text).toMatch(/small hall at three/i);
  });
});

describe('proposals taken up, plans echoed and votes counted', () => {
  it('takes a proposal that the first other speaker takes up without reservation', async () => {
    const found = await decisionsOf(`Ada: What if we run the stall for one more month?
Bo: One more month is fine by me.
Ada: Deal.`);
    expect(found.map((d) => d.sources)).toEqual([['1', '2']]);
    expect(found[0]!.text).toBe('Run the stall for one more month');
  });

  it('does not take a proposal answered with a reservation, or one handed to someone', async () => {
    expect(
      await decisionsOf(`Ada: How about a walking bus from the church?
Bo: I like it, but who would run it every morning?
Ada: Should we add a sign at the gate?
Bo: Good idea. Cy, could you make one this week?`),
    ).toEqual([]);
  });

  it('takes a plan asked about and said back by someone else', async () => {
    const found = await decisionsOf(`Ada: The boiler needs a new pump, two hundred pounds.
Bo: So we repair it?
Ada: We repair it. Cy, book the plumber.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
  });

  it('takes a one-word vote result after a call for a vote, with the motion', async () => {
    const found = await decisionsOf(`Ada: I move that we close the library on bank holidays.
Bo: Seconded.
Ada: All those in favour? Nine. Against? One. Carried.`);
    expect(found.map((d) => d.sources)).toEqual([['3']]);
    expect(found[0]!.text).toMatch(/^Carried: Close the library on bank holidays/);
    expect(await decisionsOf(`Ada: The parcel was lost.`)).toEqual([]);
  });

  it('leaves out a decision told as a story, and a progressive that describes what goes on', async () => {
    expect(
      await decisionsOf(`Ada: At my last job we decided to rewrite it, because the old code was a mess.
Bo: We're hiring for the kitchen, by the way.
Ada: We're starting with the accounts today.`),
    ).toEqual([]);
  });
});

describe('decision words in other senses', () => {
  it('does not take a phone call, a hard consensus or a deal-breaker for a decision', async () => {
    expect(
      await decisionsOf(`Ada: I'm making the call to the supplier tomorrow morning.
Bo: The call is at three, on the usual link.
Ada: Consensus is hard to reach with twelve people in the room.
Bo: For the landlord, the parking is a deal-breaker.`),
    ).toEqual([]);
  });

  it('takes "Yes, let\'s." to a "shall we" proposal, and the ruling said with "my call is"', async () => {
    const found = await decisionsOf(`Ada: Shall we move the quiz night to Thursdays?
Bo: Yes, let's.
Cy: Nobody agrees on the colour of the new banner.
Ada: My call is we keep the green one.`);
    expect(found.map((d) => d.sources)).toEqual([['1', '2'], ['4']]);
    expect(found[0]!.text).toBe('Move the quiz night to Thursdays');
  });
});
