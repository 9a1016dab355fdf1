import { describe, expect, it } from 'vitest';
import { actionsOf } from './talk.test-helper.js';

// Requests and commitments the tagger or the meeting-talk filter used to miss (found on blind-14
// after its measurement; the sentences here are invented). rules.test.ts holds the other tests.
const MEETING_DATE = '2026-05-19';

const actions = (talk: string) => actionsOf(talk, MEETING_DATE);

describe('requests whose verb the tagger reads as a noun', () => {
  it('takes "Name, <verb> it / them / the …" as a request when an object follows the verb', async () => {
    expect(
      await actions(`Irina: The dishwasher's leaking again.
Irina: Pavel, call them this afternoon, please.
Pavel: Okay.
Irina: Marek, log it on the maintenance sheet today.
Marek: Yes.
Irina: And order three more filters before Friday.
Tomasz: Will do.`),
    ).toEqual([
      { owner: 'Pavel', line: '2', due: '2026-05-19' },
      { owner: 'Marek', line: '4', due: '2026-05-19' },
      { owner: 'Tomasz', line: '6', due: '2026-05-22' },
    ]);
  });

  it('leaves a noun after a name alone: no object after it, or a question', async () => {
    expect(
      await actions(`Irina: Pavel, lunch today is on me.
Irina: Marek, coffee the usual way?
Irina: Pavel, question for you about the rota.
Marek: Pavel, morning.
Pavel: Marek, morning.`),
    ).toEqual([]);
  });
});

describe('"see" someone or something as a task', () => {
  it('takes "I\'ll see the …" and "I can see her at …" as commitments', async () => {
    expect(
      await actions(`Nadia: The Kowalskis' cat is limping, they're in at ten.
Omar: I'll see the cat. I'm free after the first consult.
Nadia: And Mrs Bell wants someone about the bill.
Lea: I can see her at noon.`),
    ).toEqual([
      { owner: 'Omar', line: '2', due: null },
      { owner: 'Lea', line: '4', due: '2026-05-19' },
    ]);
  });

  it('leaves perception and what is seen on the call alone', async () => {
    expect(
      await actions(`Nadia: The rota has a gap on Thursday.
Omar: I can see the problem.
Lea: Let me see the rota.
Omar: I'll see, it depends on the surgery list.
Lea: Can you see my screen
Omar: Yes, see you later.`),
    ).toEqual([]);
  });
});

describe('requests said politely, to two people, or mid-sentence', () => {
  it('takes "if you could … by <date>" as a request to the one addressed', async () => {
    expect(
      await actions(`Ines: The caterer needs numbers for the dinner.
Paul: I can count the vegetarians.
Ines: And if you could send me the final list by the 4th of June, the kitchen can plan.
Ines: Paul, if you could also book the taxis, I'd be grateful.`),
    ).toEqual([
      { owner: 'Paul', line: '2', due: null },
      { owner: 'Paul', line: '3', due: '2026-06-04' },
      { owner: 'Paul', line: '4', due: null },
    ]);
  });

  it('leaves "if you could …, we\'d …" alone: a condition, not a request', async () => {
    expect(
      await actions(`Ines: The caterer is expensive.
Paul: If you could get a discount, we'd stay with them.
Ines: Even if you could book it, it costs too much.`),
    ).toEqual([]);
  });

  it('gives a request to two people named before it one item each', async () => {
    expect(
      await actions(`Ines: Then we order once for both kitchens.
Paul: Fine.
Mona: Agreed.
Ines: Paul, Mona, I need your orders by the 1st of June, please.
Paul: OK.
Ines: Paul and Mona, send me the menus too.`),
    ).toEqual([
      { owner: 'Paul', line: '4', due: '2026-06-01' },
      { owner: 'Mona', line: '4', due: '2026-06-01' },
      { owner: 'Paul', line: '6', due: null },
      { owner: 'Mona', line: '6', due: null },
    ]);
  });

  it('leaves names that are the subject alone ("Paul and Mona check them")', async () => {
    expect(
      await actions(`Ines: The delivery notes.
Ines: Paul and Mona check them, as always.
Paul: Mona, Ines, good morning.
Mona: I need your help with the door.`),
    ).toEqual([]);
  });

  it('takes ", and <Name>, <imperative>" mid-sentence as a request to them', async () => {
    expect(
      await actions(`Ines: It goes on the agenda for next month, and Mona, bring the new menus with you.
Mona: Sure.
Ines: I spoke to Paul and Mona, they run the kitchen on Fridays.`),
    ).toEqual([{ owner: 'Mona', line: '1', due: null }]);
  });

  it('leaves the chair calling the meeting to order alone', async () => {
    expect(
      await actions(`Ines: Good evening. I call this meeting of the parents' association to order.
Paul: Present.`),
    ).toEqual([]);
  });
});

describe('the person asked', () => {
  it('is the one named earlier in the same turn, not whoever spoke last', async () => {
    expect(
      await actions(`Ines: The oven thermostat again.
Paul: It's at two hundred.
Ines: Mona, you fitted the last one. Can you call the supplier today?
Mona: Yes, I'll do it after lunch.`),
    ).toEqual([{ owner: 'Mona', line: '3', due: '2026-05-19' }]);
  });
});
