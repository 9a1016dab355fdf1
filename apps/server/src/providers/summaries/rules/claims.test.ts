import { describe, expect, it } from 'vitest';
import { summarizeTalk } from './talk.test-helper.js';

// Tasks claimed ("that's mine", "is on me"), needed from someone ("I'll need X from you"), or
// taken on as a need ("I'll need to get it approved"); a vague second commitment in the same
// turn. Patterns read on the readable sets (blind-3, -4, -6, -7); the sentences are invented.
const MEETING_DATE = '2026-05-19';

async function items(talk: string) {
  const summary = await summarizeTalk(talk, MEETING_DATE);
  return summary.actionItems.map((a) => ({ owner: a.owner, line: a.sources[0], due: a.due, text: a.text }));
}

describe('tasks claimed or needed', () => {
  it('takes "<task>, that\'s mine" and "<task> is on me" as the speaker\'s, with the date given after', async () => {
    expect(
      await items(`Rosa: The backup script keeps failing.
Ivo: The backup script, that's mine. Give me till Friday.
Rosa: Then the seating plan is on me.`),
    ).toEqual([
      { owner: 'Ivo', line: '2', due: '2026-05-22', text: 'Do the backup script' },
      { owner: 'Rosa', line: '3', due: null, text: 'Do the seating plan' },
    ]);
  });

  it('leaves things owned and choices alone', async () => {
    expect(
      await items(`Rosa: Whose is the blue mug?
Ivo: The blue mug is mine.
Rosa: The decision is mine to make, not yours.
Ivo: Lunch is on me today.
Rosa: Ivo, the first round is on me.`),
    ).toEqual([]);
  });

  it('takes "Name, I\'ll need X from you" as a request, and "I\'ll need to …" as a commitment', async () => {
    expect(
      await items(`Rosa: The grant report is due.
Rosa: Ivo, I'll need the attendance figures from you for the report.
Ivo: Fine.
Mila: And on our side I'll need to get the budget signed off.`),
    ).toEqual([
      { owner: 'Ivo', line: '2', due: null, text: 'Send the attendance figures' },
      { owner: 'Mila', line: '4', due: null, text: 'Get the budget signed off' },
    ]);
  });

  it('reads "within Friday" as by Friday in a simple-present plan', async () => {
    expect((await items(`Rosa: The lux values?\nIvo: I send them within Friday.`)).map((i) => i.due)).toEqual(
      ['2026-05-22'],
    );
  });
});

describe('a vague second commitment in the same turn', () => {
  it('is part of the first; two named tasks stay two', async () => {
    expect(
      (
        await items(`Rosa: The vote failed.
Ivo: Then I'll come back with another plan for the roof. I'll bring something to the June meeting.
Rosa: I'll book the hall. I'll send the invitations on Friday.`)
      ).map((i) => [i.owner, i.line]),
    ).toEqual([
      ['Ivo', '2'],
      ['Rosa', '3'],
      ['Rosa', '3'],
    ]);
  });
});
