import { describe, expect, it } from 'vitest';
import { actionsOf } from './talk.test-helper.js';

// Commitments in the simple present ("I send it after this meeting"), as non-native speakers
// often make them. (rules.test.ts and offers.test.ts hold the other action rules' tests.)
const MEETING_DATE = '2026-05-19';

const actions = (talk: string) => actionsOf(talk, MEETING_DATE);

describe('commitments in the simple present', () => {
  it('takes "I" and a task verb with a time to come as a commitment, with its due date', async () => {
    expect(
      await actions(`Mirela: The cable report is late again.
Tomasz: Yes, I send it after this meeting.
Tomasz: And I make the re-test tomorrow afternoon.
Mirela: The crane company must know about Friday.
Tomasz: I call them today, they know me.
Mirela: And the spare pump?
Tomasz: I prepare the order until Thursday evening, so it is ready.`),
    ).toEqual([
      { owner: 'Tomasz', line: '2', due: '2026-05-19' },
      { owner: 'Tomasz', line: '3', due: '2026-05-20' },
      { owner: 'Tomasz', line: '5', due: '2026-05-19' },
      { owner: 'Tomasz', line: '7', due: '2026-05-21' },
    ]);
  });

  it('leaves habits, descriptions, the past and questions alone', async () => {
    expect(
      await actions(`Mirela: How does the weekly report work?
Tomasz: I send the report to finance, and they check the numbers.
Tomasz: Normally I call the crane company today or tomorrow, it depends.
Tomasz: I send it on Mondays, before the site walk.
Mirela: Did you call them yesterday?
Tomasz: I called them yesterday, yes.
Mirela: Do I send it today?`),
    ).toEqual([]);
  });

  it('takes a date to come ("on the 6th", "by the 3rd of June") as the time, not a recurring one', async () => {
    expect(
      await actions(`Mirela: The hotel wants the deposit before the 10th.
Tomasz: I pay the deposit on the 6th, after the board meets.
Tomasz: And I book the bus by the 3rd of June.
Tomasz: I send the invoice on the 1st of every month.
Tomasz: I order the paint before the 2nd of each month.`),
    ).toEqual([
      { owner: 'Tomasz', line: '2', due: '2026-06-06' },
      { owner: 'Tomasz', line: '3', due: '2026-06-03' },
    ]);
  });

  it('takes it without a time when it answers what was just said or names it', async () => {
    expect(
      await actions(`Mirela: The van can only stop at the back gate.
Tomasz: OK, I tell the driver.
Mirela: So the fair opens on the 2nd of July.
Lena: Good. I put it in the newsletter.
Tomasz: And I make the Polish version, and I ask my cousin to print it.
Lena: So, I send you the minutes by email.`),
    ).toEqual([
      { owner: 'Tomasz', line: '2', due: null },
      { owner: 'Lena', line: '4', due: null },
      { owner: 'Tomasz', line: '5', due: null },
      { owner: 'Lena', line: '6', due: null },
    ]);
  });

  it('leaves stories, conditions, habits and "I tell you" alone', async () => {
    expect(
      await actions(`Mirela: What happened with the crane last time?
Tomasz: So I call them and they say the driver is sick.
Tomasz: And I tell you, it was a mess.
Tomasz: OK, I check it when the delivery comes.
Tomasz: So I send the report to finance every week.
Lena: And I do think the crane was fine.
Lena: I send the report to finance, and they check the numbers.`),
    ).toEqual([]);
  });

  it('takes any other base-form task verb with a time to come, before or after it', async () => {
    expect(
      await actions(`Mirela: The sign on the door still says closed on Fridays.
Lena: I change it tonight.
Tomasz: I translate the leaflet into Polish on Monday.
Lena: Before the holidays I go through all the invoices.`),
    ).toEqual([
      { owner: 'Lena', line: '2', due: '2026-05-19' },
      { owner: 'Tomasz', line: '3', due: '2026-05-25' },
      { owner: 'Lena', line: '4', due: null },
    ]);
  });

  it('leaves states, conditions and habits with a time alone', async () => {
    expect(
      await actions(`Mirela: Is tomorrow fine for the delivery?
Tomasz: I think tomorrow is fine.
Lena: I have a dentist appointment tomorrow.
Tomasz: When it arrives tomorrow I unpack it.
Lena: No overtime tomorrow unless I sign off on it.
Tomasz: I walk the dog every morning before work tomorrow too.
Lena: Alright, I take it back: we deliver on Monday.
Tomasz: I stay at home tomorrow.
Lena: I expect the parcel on Monday.`),
    ).toEqual([]);
  });
});
