import { describe, expect, it } from 'vitest';
import { iceServersFor, TURN_CREDENTIAL_TTL_S } from './ice.js';

describe('iceServersFor', () => {
  const now = new Date('2030-01-01T00:00:00Z');

  it('gives STUN as configured and TURN with coturn REST credentials valid 24 h', () => {
    const servers = iceServersFor(
      {
        stunUrls: ['stun:stun.example.org:3478'],
        turnUrls: ['turn:turn.example.org:3478?transport=udp'],
        turnSecret: 's3cret',
      },
      'participant-1',
      now,
    );
    // Known answers, computed outside our code: 2030-01-01T00:00:00Z is 1893456000, plus 24 h;
    // `printf '1893542400:participant-1' | openssl dgst -sha1 -hmac s3cret -binary | base64`.
    expect(TURN_CREDENTIAL_TTL_S).toBe(86_400);
    expect(servers[0]).toEqual({ urls: ['stun:stun.example.org:3478'] });
    expect(servers[1]).toEqual({
      urls: ['turn:turn.example.org:3478?transport=udp'],
      username: '1893542400:participant-1',
      credential: 'R7wzEfVCQcMRscs+jVjJ/dmBswo=',
    });
  });

  it('leaves TURN out without a secret, and gives nothing when nothing is configured', () => {
    expect(iceServersFor({ stunUrls: [], turnUrls: ['turn:x'], turnSecret: undefined }, 'p', now)).toEqual(
      [],
    );
  });

  it('puts the expiry, in Unix seconds, first in the username: coturn refuses it once past', () => {
    const [server] = iceServersFor(
      { stunUrls: [], turnUrls: ['turn:t:3478'], turnSecret: 'k' },
      'p-9',
      new Date('2030-06-01T12:00:00.900Z'),
    );
    // coturn (use-auth-secret) reads the part before the first ':' as the expiry timestamp and
    // rejects the allocation when it is earlier than now; whole seconds, rounded down.
    expect(server?.username).toBe(`${Date.UTC(2030, 5, 1, 12) / 1000 + 86_400}:p-9`);
    // A credential made with another secret differs (coturn answers 401 to it).
    const [other] = iceServersFor(
      { stunUrls: [], turnUrls: ['turn:t:3478'], turnSecret: 'not-k' },
      'p-9',
      new Date('2030-06-01T12:00:00.900Z'),
    );
    expect(other?.username).toBe(server?.username);
    expect(other?.credential).not.toBe(server?.credential);
  });

  it('reaches the client in joined', async () => {
    const { createTestApp, signIn } = await import('../../../test/app.js');
    const { createMeeting } = await import('../../../test/meetings.js');
    const { enter, listen } = await import('../../../test/ws-client.js');
    const t = await createTestApp({
      STUN_URLS: 'stun:a:3478,stun:b:3478',
      TURN_URLS: 'turn:c:3478',
      TURN_SECRET: 'k',
    });
    try {
      const { userId } = await signIn(t, { email: 'h@example.com' });
      const { ws } = await listen(t);
      const m = await createMeeting(t, { hostId: userId });
      const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
      expect(a.joined?.iceServers[0]).toEqual({ urls: ['stun:a:3478', 'stun:b:3478'] });
      expect(a.joined?.iceServers[1]?.username).toMatch(new RegExp(`^\\d+:${a.join.id}$`));
      a.socket.close();
    } finally {
      await t.close();
    }
  });
});
