import { describe, expect, it } from 'vitest';
import { summarizeTalk } from './talk.test-helper.js';

// A chair's ruling: announced ("here's the call", "that's what we do"), a change of mind ("I take
// it back"), or "Agreed." and then what is agreed. (rules.test.ts holds the other decision tests.)
const MEETING_DATE = '2026-01-16';

async function decisions(talk: string) {
  const summary = await summarizeTalk(talk, MEETING_DATE);
  return summary.decisions.map((d) => ({ line: d.sources[0], text: d.text }));
}

describe('rulings', () => {
  it('takes the ruling after "here\'s the call", or after "that\'s what we do:"', async () => {
    expect(
      await decisions(`Dana: The east lot floods every time it rains.
Ravi: Moving the market costs us the whole morning.
Dana: Okay, here's the call. The market moves to the school yard until the drains are fixed.
Ravi: Fine.`),
    ).toEqual([{ line: '3', text: 'The market moves to the school yard until the drains are fixed' }]);
    expect(
      await decisions(`Gwen: The belts will last till spring.
Yolanda: Then ten days works for me.
Gwen: Then that's what we do: a ten-day shutdown, and the re-belting moves to spring.`),
    ).toEqual([{ line: '3', text: 'A ten-day shutdown, and the re-belting moves to spring' }]);
  });

  it('takes "I take it back" as a change of mind, the new plan as the decision', async () => {
    const found = await decisions(`Joel: Flying costs twenty-five against eleven for the truck.
Beatrix: Fair. Alright, I take it back: we truck everything, leaving on the 9th.`);
    expect(found).toEqual([{ line: '2', text: expect.stringMatching(/^We truck everything/) }]);
  });

  it('takes what the speaker of "Agreed." says next as agreed, not a reason or an opinion', async () => {
    expect(
      await decisions(`Lucie: Two shots with nothing running tells me little with that slab.
Ingrid: Agreed. Eagle Bowl stays closed today, and we reassess it on Sunday's first round.`),
    ).toEqual([{ line: '2', text: expect.stringMatching(/^Eagle Bowl stays closed today/) }]);
    for (const reason of [
      "I don't want anyone leaning out of a lift doing brackets.",
      'And keeping the old version blocks the cleanup.',
      'The raffle made almost as much with half the work.',
    ])
      expect(
        await decisions(`Sam: Honestly, I'd skip the prizes this year.
Priya: Agreed. ${reason}`),
      ).toEqual([]);
  });
});
