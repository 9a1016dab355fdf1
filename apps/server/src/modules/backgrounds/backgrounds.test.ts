import { BACKGROUND_MESSAGES } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { postJoin } from '../../../test/ws-client.js';
import { meetingBackgrounds, subscriptions } from '../../db/schema/index.js';
import { CATALOGUE } from './catalogue.js';

let t: TestContext;
let free: { cookie: string; userId: string };
let pro: { cookie: string; userId: string };

const FREE_ID = CATALOGUE.find((e) => !e.isPremium)!.id;
const PREMIUM_ID = CATALOGUE.find((e) => e.isPremium)!.id;

beforeAll(async () => {
  t = await createTestApp();
  free = await signIn(t, { email: 'free-bg@example.com', firstName: 'Fay' });
  pro = await signIn(t, { email: 'pro-bg@example.com', firstName: 'Pia' });
  await makePro(t, pro.userId);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });
const put = (payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/backgrounds/preferences',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });

describe('GET /api/backgrounds', () => {
  it('lists at least twelve project-made backgrounds in Office, Nature and Abstract, some premium', async () => {
    const res = await get('/api/backgrounds');
    expect(res.statusCode).toBe(200);
    const list = res.json<{ id: string; category: string; isPremium: boolean; thumbnailUrl: string }[]>();
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(new Set(list.map((b) => b.category))).toEqual(new Set(['office', 'nature', 'abstract']));
    expect(list.some((b) => b.isPremium)).toBe(true);
    expect(list.some((b) => !b.isPremium)).toBe(true);
    expect(new Set(list.map((b) => b.id)).size).toBe(list.length);
  });

  it('serves every thumbnail to anyone as a 320x180 JPEG', async () => {
    const list = (await get('/api/backgrounds')).json<{ thumbnailUrl: string }[]>();
    for (const b of list) {
      const res = await get(b.thumbnailUrl);
      expect(res.statusCode, b.thumbnailUrl).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 180]);
    }
  });

  it('serves a free picture to anyone, a premium picture only to Pro users', async () => {
    const freeImage = await get(`/api/backgrounds/${FREE_ID}/image`);
    expect(freeImage.statusCode).toBe(200);
    expect((await sharp(freeImage.rawPayload).metadata()).width).toBe(1280);
    expect((await get(`/api/backgrounds/${PREMIUM_ID}/image`)).statusCode).toBe(401);
    const refused = await get(`/api/backgrounds/${PREMIUM_ID}/image`, free.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ requiresSubscription: true });
    expect((await get(`/api/backgrounds/${PREMIUM_ID}/image`, pro.cookie)).statusCode).toBe(200);
    expect((await get('/api/backgrounds/no-such-thing/image')).statusCode).toBe(404);
  });
});

describe('background preferences', () => {
  it('need a signed-in user', async () => {
    expect((await get('/api/backgrounds/preferences')).statusCode).toBe(401);
    expect((await put({ backgroundType: 'blur', blurIntensity: 3 })).statusCode).toBe(401);
  });

  it('start as None with intensity 5, and keep what was saved', async () => {
    const someone = await signIn(t, { email: 'fresh-bg@example.com' });
    expect((await get('/api/backgrounds/preferences', someone.cookie)).json()).toEqual({
      userId: someone.userId,
      backgroundType: 'none',
      blurIntensity: 5,
      selectedBackgroundId: null,
      customBackgroundUrl: null,
    });
    const saved = await put(
      { userId: someone.userId, backgroundType: 'blur', blurIntensity: 8 },
      someone.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ backgroundType: 'blur', blurIntensity: 8 });
    // None keeps the intensity and Virtual's last picture for next time.
    await put({ backgroundType: 'virtual', backgroundId: FREE_ID }, someone.cookie);
    await put({ backgroundType: 'none' }, someone.cookie);
    expect((await get('/api/backgrounds/preferences', someone.cookie)).json()).toMatchObject({
      backgroundType: 'none',
      blurIntensity: 8,
      selectedBackgroundId: FREE_ID,
    });
  });

  it('refuse a premium background to a free user, and keep the saved choice', async () => {
    await put({ backgroundType: 'blur', blurIntensity: 4 }, free.cookie);
    const res = await put({ backgroundType: 'virtual', backgroundId: PREMIUM_ID }, free.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: BACKGROUND_MESSAGES.premium, requiresSubscription: true });
    expect((await get('/api/backgrounds/preferences', free.cookie)).json()).toMatchObject({
      backgroundType: 'blur',
      blurIntensity: 4,
    });
    const ok = await put({ backgroundType: 'virtual', backgroundId: FREE_ID }, free.cookie);
    expect(ok.statusCode).toBe(200);
  });

  it('let a Pro user save a premium background, which falls back to None when Pro ends', async () => {
    const user = await signIn(t, { email: 'lapsing-bg@example.com' });
    await makePro(t, user.userId);
    const res = await put({ backgroundType: 'virtual', backgroundId: PREMIUM_ID }, user.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ backgroundType: 'virtual', selectedBackgroundId: PREMIUM_ID });
    await t.db.db
      .update(subscriptions)
      .set({ status: 'canceled', currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, user.userId));
    expect((await get('/api/backgrounds/preferences', user.cookie)).json()).toMatchObject({
      backgroundType: 'none',
      selectedBackgroundId: PREMIUM_ID,
    });
  });

  it.each([
    [{ backgroundType: 'blur', blurIntensity: 11 }, 400],
    [{ backgroundType: 'blur', blurIntensity: 0 }, 400],
    [{ backgroundType: 'blur', blurIntensity: 2.5 }, 400],
    [{ backgroundType: 'sparkles' }, 400],
    [{ backgroundType: 'virtual' }, 400],
    [{ backgroundType: 'virtual', backgroundId: 'no-such-thing' }, 400],
    [{ backgroundType: 'virtual', backgroundId: '../../etc/passwd' }, 400],
    [{ backgroundType: 'custom' }, 400],
    [{ backgroundType: 'custom', customBackgroundUrl: '/api/files/123' }, 403],
    [{ backgroundType: 'blur', userId: '00000000-0000-0000-0000-000000000000' }, 403],
  ])('answer %j with %i and a message', async (body, status) => {
    const res = await put(body, free.cookie);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toEqual(expect.any(String));
  });
});

describe('POST /api/meetings/{id}/participants/{pid}/background', () => {
  async function joined(cookie?: string) {
    const host = await signIn(t, { email: `host-${Math.random()}@example.com` });
    const meeting = await createMeeting(t, { hostId: host.userId });
    const join = await postJoin(t, meeting.meetingId, { name: 'Gina', ...(cookie ? { cookie } : {}) });
    return { meeting, join };
  }
  const apply = (meetingId: string, pid: string, payload: unknown, token?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/meetings/${meetingId}/participants/${pid}/background`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: payload as object,
    });

  it("records the participant's effect and echoes backgroundType", async () => {
    const { meeting, join } = await joined();
    const res = await apply(
      meeting.meetingId,
      join.id,
      { backgroundType: 'blur', blurIntensity: 6 },
      join.joinToken,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      participantId: join.id,
      backgroundType: 'blur',
      backgroundId: null,
      blurIntensity: 6,
      customBackgroundUrl: null,
    });
    const rows = await t.db.db
      .select()
      .from(meetingBackgrounds)
      .where(eq(meetingBackgrounds.meetingId, meeting.id));
    expect(rows).toMatchObject([{ participantId: join.id, backgroundType: 'blur', blurIntensity: 6 }]);
    const free2 = await apply(
      meeting.meetingId,
      join.id,
      { backgroundType: 'virtual', backgroundId: FREE_ID },
      join.joinToken,
    );
    expect(free2.json()).toMatchObject({ backgroundType: 'virtual', backgroundId: FREE_ID });
  });

  it('refuses a premium background to a guest and a free user, allows it to a Pro user', async () => {
    const body = { backgroundType: 'virtual', backgroundId: PREMIUM_ID };
    const guest = await joined();
    const asGuest = await apply(guest.meeting.meetingId, guest.join.id, body, guest.join.joinToken);
    expect(asGuest.statusCode).toBe(403);
    expect(asGuest.json()).toMatchObject({ requiresSubscription: true });
    const freeUser = await joined(free.cookie);
    expect(
      (await apply(freeUser.meeting.meetingId, freeUser.join.id, body, freeUser.join.joinToken)).statusCode,
    ).toBe(403);
    const proUser = await joined(pro.cookie);
    const ok = await apply(proUser.meeting.meetingId, proUser.join.id, body, proUser.join.joinToken);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("refuses someone else's participant, strangers and missing ids", async () => {
    const { meeting, join } = await joined();
    const other = await postJoin(t, meeting.meetingId, { name: 'Otto' });
    const body = { backgroundType: 'none' };
    const theirs = await apply(meeting.meetingId, other.id, body, join.joinToken);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toBe(BACKGROUND_MESSAGES.onlyYours);
    expect((await apply(meeting.meetingId, join.id, body)).statusCode).toBe(401);
    const stranger = await joined();
    expect((await apply(meeting.meetingId, join.id, body, stranger.join.joinToken)).statusCode).toBe(403);
    for (const [m, p] of [
      [meeting.meetingId, '%20'],
      ['%20', join.id],
    ]) {
      const res = await apply(m!, p!, body, join.joinToken);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: BACKGROUND_MESSAGES.idsRequired });
    }
  });
});
