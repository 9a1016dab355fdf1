import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeetingsRepository } from './repository.js';

describe('meetings repository: editing a meeting with its invitees', () => {
  let t: TestContext;
  let hostId: string;
  beforeAll(async () => {
    t = await createTestApp();
    hostId = (await signIn(t, { email: 'edit-host@example.com' })).userId;
  });
  afterAll(() => t.close());

  async function meetingWithInvitees() {
    const repo = createMeetingsRepository(t.db.db);
    const row = (await repo.insertIfIdFree({
      meetingId: `${Math.floor(100 + Math.random() * 900)}-000-001`,
      title: 'Before',
      hostId,
      hostEmail: 'edit-host@example.com',
      meetingType: 'scheduled',
      status: 'scheduled',
      scheduledFor: new Date(Date.now() + 86_400_000),
    }))!;
    await repo.upsertInvitees(row.id, [
      { email: 'ann@example.com', name: 'Ann' },
      { email: 'bob@example.com', name: 'Bob' },
    ]);
    return { repo, row };
  }

  it('saves the edit and the new list together, answering who was removed', async () => {
    const { repo, row } = await meetingWithInvitees();
    const saved = await repo.updateWithInvitees(row.id, { title: 'After' }, [
      { email: 'bob@example.com', name: 'Bobby' },
      { email: 'cy@example.com', name: 'Cy' },
    ]);
    expect(saved?.row.title).toBe('After');
    expect(saved?.row.icsSequence).toBe(row.icsSequence + 1);
    expect(saved?.before.map((i) => i.email)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(saved?.removed.map((i) => i.email)).toEqual(['ann@example.com']);
    expect(saved?.current.map((i) => [i.email, i.name]).sort()).toEqual([
      ['bob@example.com', 'Bobby'],
      ['cy@example.com', 'Cy'],
    ]);
  });

  it('leaves the meeting and its invitees as they were when saving the list fails', async () => {
    const { repo, row } = await meetingWithInvitees();
    // The same address twice in one statement makes the database refuse the invitee upsert.
    await expect(
      repo.updateWithInvitees(row.id, { title: 'After' }, [
        { email: 'cy@example.com', name: 'Cy' },
        { email: 'cy@example.com', name: 'Cy again' },
      ]),
    ).rejects.toThrow();
    const after = await repo.findByMeetingId(row.meetingId);
    expect(after?.title).toBe('Before');
    expect(after?.icsSequence).toBe(row.icsSequence);
    expect((await repo.listInvitees(row.id)).map((i) => i.email)).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);
  });

  it('answers undefined for a meeting that is gone', async () => {
    const repo = createMeetingsRepository(t.db.db);
    expect(
      await repo.updateWithInvitees('00000000-0000-4000-8000-000000000000', { title: 'x' }),
    ).toBeUndefined();
  });
});
