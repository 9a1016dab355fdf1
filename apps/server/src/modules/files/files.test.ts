import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOM_FILE_LIMITS, WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { meetingFiles } from '../../db/schema/index.js';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen } from '../../../test/ws-client.js';
import { attachmentHeader, FILE_QUOTA, fileQuotaMessages } from './service.js';

let t: TestContext;
let ws: string;
let http: string;
let hostId: string;
let hostCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ userId: hostId, cookie: hostCookie } = await signIn(t, { email: 'host@example.com' }));
  ({ ws, http } = await listen(t));
});
afterAll(async () => t.close());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);

function upload(
  meetingId: string,
  token: string | null,
  bytes: Buffer,
  name: string,
  type = 'application/octet-stream',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return fetch(`${http}/api/meetings/${meetingId}/files`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
}

describe('files', () => {
  it('lists everything shared in the meeting with who shared it and when, and tells the room at once', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    const before = Date.now();
    const res = await upload(m.meetingId, a.join.joinToken, Buffer.from('agenda'), 'agenda.txt');
    expect(res.status).toBe(201);
    const shared = await b.socket.next('file_shared');
    expect(shared.file).toMatchObject({ name: 'agenda.txt', uploaderName: 'Ann', uploaderId: a.join.id });
    expect(Date.parse(shared.file.sharedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The sharer hears of it too (its own files area).
    expect((await a.socket.next('file_shared')).file.id).toBe(shared.file.id);
    await upload(m.meetingId, b.join.joinToken, Buffer.from('notes'), 'notes.txt');
    const list = await fetch(`${http}/api/meetings/${m.meetingId}/files`, {
      headers: { authorization: `Bearer ${b.join.joinToken}` },
    });
    expect(list.status).toBe(200);
    const files = (await list.json()) as Array<{ name: string; uploaderName: string; url: string }>;
    expect(files.map((f) => [f.name, f.uploaderName])).toEqual([
      ['agenda.txt', 'Ann'],
      ['notes.txt', 'Bob'],
    ]);
    const download = await fetch(`${http}${files[0]!.url}`, {
      headers: { authorization: `Bearer ${b.join.joinToken}` },
    });
    expect(await download.text()).toBe('agenda');
    // Not a participant of this meeting: refused.
    const stranger = await fetch(`${http}/api/meetings/${m.meetingId}/files`);
    expect(stranger.status).toBe(401);
  });

  it('stores an upload with the type taken from the bytes, attaches it in chat, and downloads as attachment', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    // A PNG named like a PDF and claimed as text is a PNG.
    const res = await upload(m.meetingId, a.join.joinToken, PNG, 'résumé final.pdf', 'text/plain');
    expect(res.status, await res.clone().text()).toBe(201);
    const file = (await res.json()) as {
      id: string;
      name: string;
      size: number;
      mimeType: string;
      url: string;
    };
    expect(file).toMatchObject({ name: 'résumé final.pdf', size: PNG.length, mimeType: 'image/png' });
    expect(file.url).toBe(`/api/files/${file.id}`);

    a.socket.send({ type: 'chat_message', content: '', fileId: file.id });
    const msg = await b.socket.next('chat_message');
    expect(msg.fileData).toEqual(file);
    expect(msg.imageData).toBe(file.url);
    // Only its uploader can attach it.
    b.socket.send({ type: 'chat_message', requestId: 'steal', content: 'mine', fileId: file.id });
    expect(await b.socket.next('error')).toMatchObject({ code: 'not_found', requestId: 'steal' });

    const download = await fetch(`${http}${file.url}`, {
      headers: { authorization: `Bearer ${b.join.joinToken}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(attachmentHeader('résumé final.pdf'));
    expect(download.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''r%C3%A9sum%C3%A9%20final.pdf",
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    // The room cookie set at join works for <img src> in the page.
    const join = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      payload: { name: 'Cookie', isHost: false, isMuted: true, isVideoOn: true, sessionId: 'cookie-tab' },
    });
    // The room cookie (a guest also gets its browser secret, parley_billing).
    const setCookies = [join.headers['set-cookie'] ?? []].flat();
    const cookie = setCookies.find((c) => c.startsWith('parley_room_'))!.split(';')[0]!;
    const viaCookie = await t.app.inject({ method: 'GET', url: file.url, headers: { cookie } });
    expect(viaCookie.statusCode).toBe(200);

    // Text and unknown binary are sniffed too; HTML is served as plain text.
    const text = await (
      await upload(
        m.meetingId,
        a.join.joinToken,
        Buffer.from('<script>alert(1)</script>'),
        'x.html',
        'text/html',
      )
    ).json();
    expect((text as { mimeType: string }).mimeType).toBe('text/plain; charset=utf-8');
    const bin = await (
      await upload(m.meetingId, a.join.joinToken, Buffer.from([0, 1, 2, 3, 255]), 'a.png', 'image/png')
    ).json();
    expect((bin as { mimeType: string }).mimeType).toBe('application/octet-stream');
    a.socket.close();
    b.socket.close();
  });

  it('refuses uploads and downloads from non-participants and from other meetings', async () => {
    const m = await createMeeting(t, { hostId });
    const other = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const stranger = await enter(t, ws, other.meetingId, { name: 'Stranger' });
    expect((await upload(m.meetingId, null, PNG, 'a.png')).status).toBe(401);
    expect((await upload(m.meetingId, 'x'.repeat(43), PNG, 'a.png')).status).toBe(401);
    const cross = await upload(m.meetingId, stranger.join.joinToken, PNG, 'a.png');
    expect(cross.status).toBe(403);
    const file = (await (await upload(m.meetingId, a.join.joinToken, PNG, 'a.png')).json()) as {
      url: string;
    };
    expect((await fetch(`${http}${file.url}`)).status).toBe(401);
    const refused = await fetch(`${http}${file.url}`, {
      headers: { authorization: `Bearer ${stranger.join.joinToken}` },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/participants of this meeting/);
    expect((await fetch(`${http}/api/files/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await fetch(`${http}/api/files/not-an-id`)).status).toBe(404);
    a.socket.close();
    stranger.socket.close();
  });

  it('refuses files over 25 MB with 413, empty files and requests without a file with 400', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const big = Buffer.alloc(ROOM_FILE_LIMITS.maxBytes + 1, 0x61);
    const res = await upload(m.meetingId, a.join.joinToken, big, 'big.txt');
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/25 MB/);
    const exact = await upload(
      m.meetingId,
      a.join.joinToken,
      big.subarray(0, ROOM_FILE_LIMITS.maxBytes),
      'max.txt',
    );
    expect(exact.status).toBe(201);
    expect((await upload(m.meetingId, a.join.joinToken, Buffer.alloc(0), 'empty.txt')).status).toBe(400);
    const noFile = await fetch(`${http}/api/meetings/${m.meetingId}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.join.joinToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(415);
    a.socket.close();
  });

  it('refuses uploads beyond the meeting quota (413) or the participant file count (429), before storing anything', async () => {
    const { quota } = t.app.files;
    const saved = { ...quota };
    quota.meetingBytes = PNG.length * 3;
    quota.filesPerParticipant = 2;
    try {
      const m = await createMeeting(t, { hostId });
      const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
      const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
      expect((await upload(m.meetingId, a.join.joinToken, PNG, '1.png')).status).toBe(201);
      expect((await upload(m.meetingId, a.join.joinToken, PNG, '2.png')).status).toBe(201);
      const third = await upload(m.meetingId, a.join.joinToken, PNG, '3.png');
      expect(third.status).toBe(429);
      expect(await third.json()).toEqual({ message: fileQuotaMessages(quota).tooManyFiles });
      expect((await upload(m.meetingId, b.join.joinToken, PNG, '3.png')).status).toBe(201);
      // The meeting now holds 3 × PNG: one byte more is refused, concurrent uploads included.
      const over = await Promise.all([
        upload(m.meetingId, b.join.joinToken, Buffer.from('x'), 'x.txt'),
        upload(m.meetingId, b.join.joinToken, Buffer.from('y'), 'y.txt'),
      ]);
      expect(over.map((r) => r.status)).toEqual([413, 413]);
      expect(await over[0]!.json()).toEqual({ message: fileQuotaMessages(quota).meetingFull });
      const dir = path.join(t.config.dataDir, 'files', m.id);
      expect(readdirSync(dir)).toHaveLength(3);
      // Concurrent uploads that each fit alone do not pass the quota together.
      const m2 = await createMeeting(t, { hostId });
      quota.filesPerParticipant = 50;
      const c = await enter(t, ws, m2.meetingId, { name: 'Cat' });
      const race = await Promise.all(
        Array.from({ length: 6 }, (_, i) => upload(m2.meetingId, c.join.joinToken, PNG, `${i}.png`)),
      );
      expect(race.filter((r) => r.status === 201)).toHaveLength(3);
      expect(race.filter((r) => r.status === 413)).toHaveLength(3);
      expect(readdirSync(path.join(t.config.dataDir, 'files', m2.id))).toHaveLength(3);
      for (const x of [a, b, c]) x.socket.close();
    } finally {
      Object.assign(quota, saved);
    }
    expect(quota).toEqual(FILE_QUOTA);
  });

  it('removes the stored bytes when the database refuses the row', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    // Only the file's row is refused: other slices (the free-time clock) write at the same moment.
    const insert = t.app.db.db.insert.bind(t.app.db.db);
    const spy = vi.spyOn(t.app.db.db, 'insert').mockImplementation(((table: Parameters<typeof insert>[0]) => {
      if (table === meetingFiles) throw new Error('database is down');
      return insert(table);
    }) as typeof insert);
    try {
      const res = await upload(m.meetingId, a.join.joinToken, PNG, 'a.png');
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const dir = path.join(t.config.dataDir, 'files', m.id);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    a.socket.close();
  });

  it('deleting a meeting ends its live room (4005) and removes its stored files', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    const file = (await (await upload(m.meetingId, a.join.joinToken, PNG, 'a.png')).json()) as {
      url: string;
    };
    const dir = path.join(t.config.dataDir, 'files', m.id);
    expect(readdirSync(dir)).toHaveLength(1);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/meetings/${m.meetingId}`,
      headers: { cookie: hostCookie },
    });
    expect(del.statusCode).toBe(200);
    for (const x of [a, b]) expect((await x.socket.closed).code).toBe(WS_CLOSE.meetingEnded);
    expect(await t.app.rooms.room(m.id)).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    // The old tokens open nothing any more; the link is gone.
    const later = await upload(m.meetingId, a.join.joinToken, PNG, 'b.png');
    expect(later.status).toBe(401);
    const download = await fetch(`${http}${file.url}`, {
      headers: { authorization: `Bearer ${b.join.joinToken}` },
    });
    expect(download.status).toBe(404);
    const rejoin = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      payload: { name: 'Ann', isHost: false, isMuted: true, isVideoOn: true, sessionId: 'again' },
    });
    expect(rejoin.statusCode).toBe(404);
  });
});
