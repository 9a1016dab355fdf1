import { describe, expect, it } from 'vitest';
import { actionsOf } from './talk.test-helper.js';

// What sounds like a commitment but is not one: doubt, a refusal named with the ability, terms
// offered in a negotiation, and the chair's phrasing (blind-14's false positives, read after its
// measurement; the sentences here are invented).
const MEETING_DATE = '2026-05-19';

const actions = (talk: string) => actionsOf(talk, MEETING_DATE);

describe('not a commitment', () => {
  it('leaves doubt, a refusal given with the ability, and "let me put it this way" alone', async () => {
    expect(
      await actions(`Ana: Could someone sort the garage out?
Ben: I don't think I can face the garage this month.
Cleo: I'm not sure I can carry the boxes down.
Dev: I can drive on the Saturday, but I don't want to drive alone.
Ana: Let me put it this way: we clear it by the end of June.`),
    ).toEqual([]);
  });

  it('still takes a commitment said with confidence or "I think I can"', async () => {
    expect(
      await actions(`Ana: The garage needs clearing.
Ben: I think I can borrow a van by Friday.
Dev: I can drive on the Saturday, but I'd like some help with the loading.`),
    ).toEqual([
      { owner: 'Ben', line: '2', due: '2026-05-22' },
      { owner: 'Dev', line: '3', due: '2026-05-23' },
    ]);
  });
});

describe('terms offered in a negotiation', () => {
  it('are offers: an action item only when the other side takes them up', async () => {
    expect(
      await actions(`Hana: For a group your size I can include the parking free on both nights.
Omar: That's generous, thank you.
Hana: I can hold the rooms until the 2nd of June without a deposit.
Omar: Yes, please.`),
    ).toEqual([{ owner: 'Hana', line: '3', due: '2026-06-02' }]);
  });
});
