import { describe, expect, it } from 'vitest';
import { summarizeTalk } from './talk.test-helper.js';

// Action items that are not work taken on: offers nobody takes up, concessions and prohibitions,
// and requests that only run the meeting. (rules.test.ts holds the other rule tests.)
const MEETING_DATE = '2026-03-11';

async function actions(talk: string) {
  const summary = await summarizeTalk(talk, MEETING_DATE);
  return summary.actionItems.map((a) => ({ owner: a.owner, line: a.sources[0], text: a.text }));
}

describe('offers are action items only when taken up', () => {
  it('drops a commitment offered on a condition of what the others want, unless accepted', async () => {
    const declined = await actions(`Ruth: Can someone bring the folding chairs?
Joe: I can pick up the chairs on the day, if that helps.
Luis: Thanks, but the hall has its own, so we're fine.`);
    expect(declined).toEqual([]);
    const stretched = await actions(`Pete: We need a runbook for replaying webhooks.
Yara: I can write that if you're stretched.
Pete: Thanks, but I know the edge cases best.`);
    expect(stretched).toEqual([]);
    const accepted = await actions(`Ruth: The chairs are still at the school.
Joe: I can pick up the chairs on Friday, if that helps.
Ruth: Yes, please, that would be great.`);
    expect(accepted).toEqual([expect.objectContaining({ owner: 'Joe', line: '2' })]);
  });

  it('reads a hedged "I\'ll probably…" as a prediction, not a commitment', async () => {
    expect(
      await actions(`Aurelia: Sunita will write the case for and against.
Kofi: I should say I'll probably argue against it.
Sunita: I'd expect nothing less.`),
    ).toEqual([]);
  });

  it('reads terms put on the table in a negotiation as an offer', async () => {
    expect(
      await actions(`Yuki: Would there be a cap at renewal?
Dana: I can cap any renewal increase at five percent of the total contract.
Marcus: Fine, we'll take the waived fee with the cap.`),
    ).toEqual([]);
    expect(
      await actions(`Frances: The swing is the sticking point.
Dmitri: Since the second shop is a maybe, I can hold fifteen percent at nine for six months.
Ravi: That covers the spring openings exactly.`),
    ).toEqual([]);
  });

  it('still takes a plain commitment with a price in it', async () => {
    const found = await actions(`Mia: The quote for the venue came in.
Leo: I'll send the quote of nine hundred pounds to the board by Friday.`);
    expect(found).toEqual([expect.objectContaining({ owner: 'Leo', line: '2' })]);
  });
});

describe('sentences shaped like tasks that are not work', () => {
  it('drops a concession, a prohibition, a stop and leaving it to others', async () => {
    expect(
      await actions(`Gwen: It is early, I'll give you that. Is this the busy time for bees?
Samir: It's the busiest. Please don't ring the fire brigade, ring the swarm line.
Teo: Okay, bridge. I'll stop.
Moreau: Understood. I'll leave it to the letter.
Gwen: I'll just blame you, then.
Nadia: Right, I'll get going then.`),
    ).toEqual([]);
  });

  it('keeps "don\'t forget to…" as the task it asks for', async () => {
    const found = await actions(`Ana: The venue wants the numbers.
Ben: Ana, please don't forget to send the venue the final numbers by Friday.`);
    expect(found).toEqual([expect.objectContaining({ owner: 'Ana', line: '2' })]);
  });

  it('drops requests that only run the meeting', async () => {
    expect(
      await actions(`Okafor: Dr Lindqvist, would you take us through the unblinded safety tables?
Lindqvist: Certainly. Serious adverse events are balanced.
Kofi: Bram, give us the short version of the bug picture.
Funmi: Would you mind stepping out for ten minutes? We'll call you back in.
Funmi: Okay, let's bring Julia back. Mariko, would you grab her?
Gloria: I'll take a motion to table it until July.
Keiko: I flagged a conflict, so I'll stay out of that one.`),
    ).toEqual([]);
  });

  it('drops advice about an ongoing practice urged on everyone', async () => {
    expect(
      await actions(`Gwen: What about people who want to help bees?
Samir: We should all be planting more for late summer.`),
    ).toEqual([]);
  });
});

describe('running the meeting is no decision either', () => {
  it('reads "we\'ll go through…" as the agenda', async () => {
    const summary = await summarizeTalk(
      `Kofi: Pete, give us the short version, then we'll go through the fixes and owners.
Pete: Sure. The webhook library upgrade broke retries.`,
      MEETING_DATE,
    );
    expect(summary.decisions).toEqual([]);
    expect(summary.actionItems).toEqual([]);
  });
});

describe('habits are not commitments', () => {
  it('drops what the speaker usually does, and keeps a commitment after a problem', async () => {
    expect(
      await actions(`Ana: How do you start on a new team?
Ben: Usually I'll sit with each engineer for an hour. In my last job, I'd map the services first.
Ben: Whenever a deploy breaks, I'll roll back before anyone asks.
Ben: I'll always read the on-call notes on a Monday.`),
    ).toEqual([]);
    const found = await actions(`Ana: The nightly build sometimes fails on the first run.
Ben: Sometimes it does, so I'll look into the flaky test today.`);
    expect(found).toEqual([expect.objectContaining({ owner: 'Ben', line: '2' })]);
  });
});
