import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSetupIntent } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('createSetupIntent', () => {
  it("asks in the participant's billing session: the meeting and its join token", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ clientSecret: 'seti_1_secret_2' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(createSetupIntent('pia@example.com', '123-456-789', 'join-token')).resolves.toEqual({
      clientSecret: 'seti_1_secret_2',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/payment/setup-intent');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'pia@example.com', meetingId: '123-456-789' });
    expect(init.headers).toMatchObject({ Authorization: 'Bearer join-token' });
  });
});
