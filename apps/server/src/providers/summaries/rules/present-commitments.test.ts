import { describe, expect, it } from 'vitest';
import { summarizeTalk } from './talk.test-helper.js';

// Commitments in the simple present ("I send it after this meeting"), as non-native speakers
// often make them. (rules.test.ts and offers.test.ts hold the other action rules' tests.)
const MEETING_DATE = '2026-05-19';

async function actions(talk: string) {
  const summary = await summarizeTalk(talk, MEETING_DATE);
  return summary.actionItems.map((a) => ({ owner: a.owner, line: a.sources[0], due: a.due }));
}

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
});
