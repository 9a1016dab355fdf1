import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen } from '../../../test/ws-client.js';

/** The value of one sample line of the Prometheus text, by its exact name and labels. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : undefined;
}

describe('/metrics', () => {
  let t: TestContext;
  let ws: string;
  let hostId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ userId: hostId } = await signIn(t, { email: 'host@example.com' }));
    ({ ws } = await listen(t));
  });
  afterAll(async () => t?.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return res.body;
  };

  it('counts HTTP latency by route pattern, meetings, participants and WebSocket messages', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/meetings/123-456-789/info' });
    const m = await createMeeting(t, { hostId });
    const ann = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const bob = await enter(t, ws, m.meetingId, { name: 'Bob' });
    ann.socket.send({ type: 'chat_message', content: 'one' });
    ann.socket.send({ type: 'chat_message', content: 'two' });
    await bob.socket.next('chat_message');
    await bob.socket.next('chat_message');

    const text = await scrape();
    expect(
      sample(
        text,
        'parley_http_request_duration_seconds_count{method="GET",route="/api/health",status_code="200"}',
      ),
    ).toBe(3);
    // The route's pattern, not the URL: ids do not become labels.
    expect(text).not.toContain('123-456-789');
    expect(sample(text, 'parley_active_meetings')).toBe(1);
    expect(sample(text, 'parley_active_participants')).toBe(2);
    expect(sample(text, 'parley_ws_messages_total{direction="in",type="chat_message"}')).toBe(2);
    expect(sample(text, 'parley_ws_messages_total{direction="in",type="join_meeting"}')).toBe(2);
    // Each chat message went to both sockets (the sender's copy echoes its requestId).
    expect(sample(text, 'parley_ws_messages_total{direction="out",type="chat_message"}')).toBe(4);
    expect(text).toContain('parley_process_resident_memory_bytes');

    ann.socket.close();
    bob.socket.close();
    await ann.socket.closed;
    await bob.socket.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(sample(await scrape(), 'parley_active_participants')).toBe(0);
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const locked = await createTestApp({ METRICS_TOKEN: 'a-long-enough-token' });
    try {
      const bare = await locked.app.inject({ method: 'GET', url: '/metrics' });
      expect(bare.statusCode).toBe(401);
      const wrong = await locked.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer a-long-enough-tokex' },
      });
      expect(wrong.statusCode).toBe(401);
      const ok = await locked.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer a-long-enough-token' },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await locked.close();
    }
  });
});
