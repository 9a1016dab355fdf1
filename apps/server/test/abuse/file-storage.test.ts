import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, meetingFiles, meetings } from '../../src/db/schema/index.js';
import { FILE_QUOTA, fileQuotaMessages } from '../../src/modules/files/service.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, item 8: files outlived their meetings (no one could download them any more)
 * and a Pro user could loop "create a meeting, upload 500 MB". Now all the meetings of one host
 * share a storage quota (413), the instance has one (507), and the retention job deletes files
 * and chat 30 days after a meeting ended unless the host kept them. The quotas are lowered to
 * 1 MB per host and 2 MB in all here, so the loop is a few 400 KB uploads.
 */
const KB = 1024;
const DAY = 86_400_000;
let t: TestContext;
let ws: string;
let http: string;
const sockets: TestSocket[] = [];
const quota = { ...FILE_QUOTA, hostBytes: 1024 * KB, instanceBytes: 2048 * KB };
const messages = fileQuotaMessages(quota);

beforeAll(async () => {
  t = await createTestApp({ FILES_QUOTA_PER_HOST_MB: '1', FILES_QUOTA_TOTAL_MB: '2' });
  ({ ws, http } = await listen(t));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** A host's new meeting with one participant in it, ready to upload. */
async function meetingOf(hostId: string) {
  const m = await createMeeting(t, { hostId });
  const p = await enter(t, ws, m.meetingId, { name: 'Uploader' });
  sockets.push(p.socket);
  return { row: m, token: p.join.joinToken };
}

async function upload(meetingId: string, token: string, bytes: number) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes).fill(7)]), 'notes.bin');
  const res = await fetch(`${http}/api/meetings/${meetingId}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { message?: string; id?: string } };
}

function storedFiles(): string[] {
  const root = path.join(t.config.dataDir, 'files');
  try {
    return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) =>
      statSync(path.join(root, p)).isFile(),
    );
  } catch {
    return [];
  }
}

describe('storage quotas', () => {
  it('stops a host looping "new meeting, upload" with 413, and the instance with 507', async () => {
    const a = await signIn(t, { email: 'looper@example.com' });
    const statuses: number[] = [];
    let refusal = '';
    for (let i = 0; i < 4; i++) {
      const m = await meetingOf(a.userId);
      const res = await upload(m.row.meetingId, m.token, 400 * KB);
      statuses.push(res.status);
      if (res.status !== 201) refusal = res.body.message ?? '';
    }
    // 400 KB + 400 KB fit in 1 MB; a third meeting's upload does not, nor a fourth's.
    expect(statuses).toEqual([201, 201, 413, 413]);
    expect(refusal).toBe(messages.hostFull);

    // Other hosts still upload normally, until the instance (2 MB) is full.
    const b = await signIn(t, { email: 'second@example.com' });
    const c = await signIn(t, { email: 'third@example.com' });
    const mb = await meetingOf(b.userId);
    expect((await upload(mb.row.meetingId, mb.token, 400 * KB)).status).toBe(201);
    expect((await upload(mb.row.meetingId, mb.token, 400 * KB)).status).toBe(201);
    const mc = await meetingOf(c.userId);
    expect((await upload(mc.row.meetingId, mc.token, 400 * KB)).status).toBe(201);
    const full = await upload(mc.row.meetingId, mc.token, 400 * KB);
    expect(full.status).toBe(507);
    expect(full.body.message).toBe(messages.instanceFull);
    // A small file that fits is still taken.
    expect((await upload(mc.row.meetingId, mc.token, 20 * KB)).status).toBe(201);

    // Refused uploads left no bytes behind: every stored file has its row.
    expect(storedFiles()).toHaveLength((await t.db.db.select().from(meetingFiles)).length);
  });
});

describe('the retention job', () => {
  it('deletes files and chat 30 days after a meeting ended, unless kept or still running', async () => {
    const host = await signIn(t, { email: 'retention@example.com' });
    // The quota test filled the instance: its rows go (their bytes are not looked at here).
    await t.db.db.delete(meetingFiles);
    const now = new Date();
    const setUp = async (
      status: 'ended' | 'scheduled' | 'live',
      endedDaysAgo: number,
      keepContent = false,
    ) => {
      const m = await meetingOf(host.userId);
      const res = await upload(m.row.meetingId, m.token, 10 * KB);
      expect(res.status).toBe(201);
      await t.db.db.insert(chatMessages).values({
        meetingId: m.row.id,
        senderId: 'p1',
        senderName: 'Ann',
        content: 'see the file',
        fileId: res.body.id!,
      });
      await t.db.db
        .update(meetings)
        .set({ status, keepContent, updatedAt: new Date(now.getTime() - endedDaysAgo * DAY) })
        .where(eq(meetings.id, m.row.id));
      return m.row.id;
    };
    const expired = await setUp('ended', 31);
    const recurringPast = await setUp('scheduled', 45);
    const recent = await setUp('ended', 29);
    const kept = await setUp('ended', 90, true);
    const running = await setUp('live', 60);

    const run = await t.app.retention.runOnce(now);
    expect(run).toEqual({
      chat: { meetings: 2, items: 2, failed: 0 },
      files: { meetings: 2, items: 2, failed: 0 },
      // No transcript, summary or recording in these meetings (ai/routes.test.ts and
      // recordings/recordings.test.ts cover those).
      transcripts: { meetings: 0, items: 0, failed: 0 },
      summaries: { meetings: 0, items: 0, failed: 0 },
      recordings: { meetings: 0, items: 0, failed: 0 },
      // The uploader's attendance row in each due meeting (retention-everything.test.ts covers
      // the notes and whiteboard).
      'notes and whiteboard': { meetings: 0, items: 0, failed: 0 },
      attendance: { meetings: 2, items: 2, failed: 0 },
    });
    const left = async (meetingId: string) => ({
      chat: (await t.db.db.select().from(chatMessages).where(eq(chatMessages.meetingId, meetingId))).length,
      files: (await t.db.db.select().from(meetingFiles).where(eq(meetingFiles.meetingId, meetingId))).length,
      bytes: storedFiles().filter((p) => p.startsWith(meetingId)).length,
    });
    expect(await left(expired)).toEqual({ chat: 0, files: 0, bytes: 0 });
    expect(await left(recurringPast)).toEqual({ chat: 0, files: 0, bytes: 0 });
    for (const id of [recent, kept, running]) expect(await left(id)).toEqual({ chat: 1, files: 1, bytes: 1 });
    // The meetings themselves stay (the host still sees them in My Meetings).
    expect(await t.db.db.select().from(meetings).where(eq(meetings.id, expired))).toHaveLength(1);

    // Nothing is left to do until more time passes; two days on, the 29-day-old one goes too.
    expect((await t.app.retention.runOnce(now)).files).toEqual({ meetings: 0, items: 0, failed: 0 });
    expect((await t.app.retention.runOnce(new Date(now.getTime() + 2 * DAY))).files?.meetings).toBe(1);
    expect(await left(recent)).toEqual({ chat: 0, files: 0, bytes: 0 });
  });
});
