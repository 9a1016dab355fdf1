import { BACKGROUND_MESSAGES, CUSTOM_BACKGROUND_LIMITS } from '@parley/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { postJoin } from '../../../test/ws-client.js';

let t: TestContext;
let free: { cookie: string; userId: string };
let pro: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp();
  free = await signIn(t, { email: 'free-up@example.com' });
  pro = await signIn(t, { email: 'pro-up@example.com' });
  await makePro(t, pro.userId);
});
afterAll(async () => {
  await t?.close();
});

function multipart(bytes: Buffer, filename: string, type: string) {
  const boundary = `----parley${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (cookie: string, bytes: Buffer, filename = 'me.png', type = 'image/png') => {
  const { payload, headers } = multipart(bytes, filename, type);
  return t.app.inject({
    method: 'POST',
    url: '/api/backgrounds/custom',
    headers: { ...headers, cookie },
    payload,
  });
};

/** A picture with a bit of detail (a gradient and a disc), `w` x `h`, as PNG with an alpha channel. */
function picture(w: number, h: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> {
  const image = sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g">` +
        `<stop offset="0" stop-color="#0af"/><stop offset="1" stop-color="#f50"/></linearGradient></defs>` +
        `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="50%" cy="50%" r="30%" fill="#fff" fill-opacity=".5"/></svg>`,
    ),
  );
  return (format === 'png' ? image.png() : format === 'jpeg' ? image.jpeg() : image.webp()).toBuffer();
}

describe('custom backgrounds', () => {
  it('are for Pro users: a free user is refused before the upload is read', async () => {
    const res = await upload(free.cookie, await picture(64, 64));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ requiresSubscription: true });
    expect((await t.app.inject({ method: 'POST', url: '/api/backgrounds/custom' })).statusCode).toBe(401);
  });

  it('store a re-encoded JPEG that fits 1920x1080, served only to its owner', async () => {
    const original = await picture(3000, 2000);
    const res = await upload(pro.cookie, original);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ id: string; url: string; width: number; height: number }>();
    expect(created).toMatchObject({
      width: 1620,
      height: 1080,
      url: `/api/backgrounds/custom/${created.id}`,
    });
    const served = await t.app.inject({ url: created.url, headers: { cookie: pro.cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(original)).toBe(false);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['jpeg', 1620, 1080, false]);
    // Another user's request looks exactly like an unknown id.
    const other = await t.app.inject({ url: created.url, headers: { cookie: free.cookie } });
    const unknown = await t.app.inject({
      url: '/api/backgrounds/custom/00000000-0000-4000-8000-000000000000',
      headers: { cookie: free.cookie },
    });
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(unknown.body);
    const list = await t.app.inject({ url: '/api/backgrounds/custom', headers: { cookie: pro.cookie } });
    expect(list.json()).toEqual([expect.objectContaining({ id: created.id })]);
  });

  it.each([
    ['a text file named .png', Buffer.from('hello, this is not a picture at all'), 415],
    [
      'an SVG (could carry script)',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      415,
    ],
    ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 415],
    [
      'a PNG signature followed by garbage',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(400, 7)]),
      415,
    ],
    ['an empty file', Buffer.alloc(0), 400],
  ])('refuse %s with %i and a message', async (_what, bytes, status) => {
    const res = await upload(pro.cookie, bytes);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toEqual(expect.any(String));
    if (status === 415) expect(res.json().message).toMatch(/image/i);
  });

  it('refuse a file over 5 MB with 413', async () => {
    const big = Buffer.concat([
      await picture(32, 32, 'jpeg'),
      Buffer.alloc(CUSTOM_BACKGROUND_LIMITS.maxBytes + 10),
    ]);
    const res = await upload(pro.cookie, big, 'big.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toBe(BACKGROUND_MESSAGES.tooLarge);
  });

  it('are limited per user, and a deleted one is gone', async () => {
    const user = await signIn(t, { email: 'many-up@example.com' });
    await makePro(t, user.userId);
    const ids: string[] = [];
    for (let i = 0; i < CUSTOM_BACKGROUND_LIMITS.perUser; i++) {
      const res = await upload(user.cookie, await picture(40 + i, 30, 'webp'), 'x.webp', 'image/webp');
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ id: string }>().id);
    }
    const over = await upload(user.cookie, await picture(40, 30));
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(BACKGROUND_MESSAGES.tooMany);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/backgrounds/custom/${ids[0]}`,
      headers: { cookie: user.cookie },
    });
    expect(del.statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: `/api/backgrounds/custom/${ids[0]}`, headers: { cookie: user.cookie } }))
        .statusCode,
    ).toBe(404);
    expect((await upload(user.cookie, await picture(40, 30))).statusCode).toBe(201);
  });

  it('can be chosen in preferences and in a meeting by their owner only', async () => {
    const created = (await upload(pro.cookie, await picture(800, 600, 'jpeg'), 'p.jpg', 'image/jpeg')).json<{
      url: string;
    }>();
    const save = (cookie: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/backgrounds/preferences',
        headers: { cookie },
        payload: { backgroundType: 'custom', customBackgroundUrl: created.url },
      });
    const mine = await save(pro.cookie);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ backgroundType: 'custom', customBackgroundUrl: created.url });
    const otherPro = await signIn(t, { email: 'other-pro-up@example.com' });
    await makePro(t, otherPro.userId);
    expect((await save(otherPro.cookie)).statusCode).toBe(404);
    expect((await save(free.cookie)).statusCode).toBe(403);

    const meeting = await createMeeting(t, { hostId: pro.userId });
    const join = await postJoin(t, meeting.meetingId, { name: 'Pia', cookie: pro.cookie });
    const applied = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${meeting.meetingId}/participants/${join.id}/background`,
      headers: { authorization: `Bearer ${join.joinToken}` },
      payload: { backgroundType: 'custom', customBackgroundUrl: created.url },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ backgroundType: 'custom', customBackgroundUrl: created.url });
  });
});
