import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';

describe('development outbox', () => {
  let t: TestContext;
  let meetingId: string;

  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'development' });
    const host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
    await makePro(t, host.userId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      headers: { cookie: host.cookie },
      payload: {
        meetingType: 'scheduled',
        title: '<script>alert(1)</script> & Co',
        hostEmail: 'host@example.com',
        scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
        duration: 30,
        timezone: 'Europe/Paris',
      },
    });
    meetingId = created.json().meetingId;
    await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: { meetingId, invitees: [{ email: 'ann@example.com', name: 'Ann' }] },
    });
    await t.app.jobs.idle(); // sent by the job queue after the answer
  });
  afterAll(async () => t?.close());

  it('keeps the mail in the outbox and lists it with its text and calendar part', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/api/outbox' });
    expect(res.statusCode).toBe(200);
    const [mail] = res.json();
    expect(mail).toMatchObject({
      to: 'ann@example.com',
      subject: 'Invitation: <script>alert(1)</script> & Co',
    });
    expect(mail.text).toContain(`/meeting/${meetingId}`);
    expect(mail.text).toContain('(Europe/Paris)');
    expect(mail.calendar).toContain('METHOD:REQUEST');
    expect(mail.raw).toMatch(/^Content-Type: multipart\/mixed/m);
  });

  it('shows /dev/outbox as an HTML page with every text escaped', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<h1 style="margin:0;font-size:22px">Outbox</h1>');
    expect(res.body).toContain('Invitation: &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('ann@example.com');
    expect(res.body).toContain('Calendar invitation (.ics)');
  });

  it('does not exist in production', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
      ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
    });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/dev/api/outbox' })).statusCode).toBe(404);
      const page = await prod.app.inject({ method: 'GET', url: '/dev/outbox' });
      expect(page.body).not.toContain('Outbox');
    } finally {
      await prod.close();
    }
  });
});
