import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEETING_PASSWORD_LOCK,
  UNKNOWN_MEETING_LOOKUPS,
  UNKNOWN_MEETING_LOOKUPS_BY_GUESTS,
} from '../../src/modules/rooms/gate.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';

/**
 * Issue 34, item 7: ten wrong passwords from anyone locked EVERY guest out of a meeting for 15
 * minutes, and with TRUST_PROXY=true (accepted with a warning) each request could name its own
 * address. Now the meeting's lock keeps out only the addresses that failed (fresh addresses get a
 * bounded number of locked tries), signed-in users have budgets of their own, and the per-user
 * and per-meeting budgets hold whatever X-Forwarded-For says.
 *
 * The server believes every X-Forwarded-For here (TRUST_PROXY=true): the attacker writes a new
 * one on every request.
 */
let t: TestContext;
let host: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
});
afterAll(async () => t?.close());

let n = 0;
const freshAddress = () => {
  n += 1;
  return `198.51.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
};

const idFor = (i: number) => {
  const d = String(i).padStart(9, '0');
  return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
};

const join = (
  meetingId: string,
  opts: { password?: string; address?: string; cookie?: string; isHost?: boolean } = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    headers: {
      'x-forwarded-for': opts.address ?? freshAddress(),
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
    payload: {
      name: 'Guest',
      isHost: opts.isHost ?? false,
      isMuted: true,
      isVideoOn: true,
      sessionId: `s-${Math.random()}`,
      ...(opts.password !== undefined ? { password: opts.password } : {}),
    },
  });

describe('wrong passwords from rotating addresses', () => {
  it('lock the addresses that failed, not the signed-in user or the right password from a fresh address', async () => {
    const m = await createMeeting(t, { hostId: host.userId, password: '4711' });
    const attacker: string[] = [];
    const codes: number[] = [];
    for (let i = 0; i < MEETING_PASSWORD_LOCK.limit + 5; i++) {
      const address = freshAddress();
      attacker.push(address);
      codes.push((await join(m.meetingId, { password: String(i).padStart(4, '0'), address })).statusCode);
    }
    // Ten lock the meeting; the next five, from addresses that had not failed, are locked tries.
    expect(codes).toEqual(Array(MEETING_PASSWORD_LOCK.limit + 5).fill(403));

    // Every address that failed stays locked, even with the right password, and is told how long.
    for (const address of attacker) {
      const res = await join(m.meetingId, { password: '4711', address });
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toMatch(
        /^Too many wrong passwords were tried for this meeting\. Password entry is locked; please try again in 15 minutes\.$/,
      );
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
    }

    // The right password from an address that has not failed gets in.
    const guest = await join(m.meetingId, { password: '4711' });
    expect(guest.statusCode).toBe(200);
    expect(guest.json().admission).toBe('admitted');

    // A signed-in user (an invitee signs in with the invited e-mail) gets in with the password,
    // and a wrong guess of theirs is theirs alone.
    const invitee = await signIn(t, { email: 'invitee@example.com', firstName: 'Ivo' });
    const address = attacker[0]!;
    expect((await join(m.meetingId, { password: 'nope', cookie: invitee.cookie, address })).statusCode).toBe(
      403,
    );
    const signedIn = await join(m.meetingId, { password: '4711', cookie: invitee.cookie, address });
    expect(signedIn.statusCode).toBe(200);
    // The host needs no password.
    expect((await join(m.meetingId, { isHost: true, cookie: host.cookie })).statusCode).toBe(200);
  });

  it('still bound the guesses per meeting: the locked tries run out whatever the addresses', async () => {
    const m = await createMeeting(t, { hostId: host.userId, password: 'secret' });
    const total = 60;
    const codes: number[] = [];
    for (let i = 0; i < total; i++)
      codes.push((await join(m.meetingId, { password: `guess-${i}` })).statusCode);
    const evaluated = MEETING_PASSWORD_LOCK.limit + MEETING_PASSWORD_LOCK.lockedTries;
    expect(codes.filter((c) => c === 403)).toHaveLength(evaluated);
    expect(codes.filter((c) => c === 429)).toHaveLength(total - evaluated);
    // Once the attacker has spent them, signing in still gets a guest in.
    const user = await signIn(t, { email: 'late@example.com', firstName: 'Lee' });
    expect((await join(m.meetingId, { password: 'secret', cookie: user.cookie })).statusCode).toBe(200);
  });
});

describe('probing meeting ids with a new X-Forwarded-For every time', () => {
  it('is limited for guests together, with Retry-After', async () => {
    const codes: number[] = [];
    let refused: { status: number; message: string; retryAfter: string | undefined } | undefined;
    const total = UNKNOWN_MEETING_LOOKUPS_BY_GUESTS.limit + 30;
    for (let i = 0; i < total; i++) {
      const res = await join(idFor(700_000_000 + i));
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        refused ??= {
          status: res.statusCode,
          message: res.json().message,
          retryAfter: res.headers['retry-after'] as string | undefined,
        };
      }
    }
    expect(codes.filter((c) => c === 404)).toHaveLength(UNKNOWN_MEETING_LOOKUPS_BY_GUESTS.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
    expect(refused!.message).toMatch(
      /^Too many meeting ids were tried\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(Number(refused!.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused!.retryAfter)).toBeLessThanOrEqual(60);
    // A real meeting answers like an unknown one past the budget: no oracle.
    const real = await createMeeting(t, { hostId: host.userId });
    expect((await join(real.meetingId)).statusCode).toBe(429);
    // Signed-in users keep their own budget: one still gets in.
    const user = await signIn(t, { email: 'colleague@example.com', firstName: 'Cora' });
    expect((await join(real.meetingId, { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('is limited per signed-in user, whatever the addresses say', async () => {
    const prober = await signIn(t, { email: 'prober@example.com', firstName: 'Pat' });
    const codes: number[] = [];
    for (let i = 0; i < UNKNOWN_MEETING_LOOKUPS.limit + 10; i++) {
      codes.push((await join(idFor(800_000_000 + i), { cookie: prober.cookie })).statusCode);
    }
    expect(codes.filter((c) => c === 404)).toHaveLength(UNKNOWN_MEETING_LOOKUPS.limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
  });
});
