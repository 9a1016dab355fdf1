import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { becomePro } from '../pages/Subscribe.js';
import { VIEWPORTS, horizontalOverflow, launchBrowser, newContext, screenshot } from '../support/browser.js';
import { eventually } from '../support/poll.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * Invitation e-mails that the server could not send after every retry are shown to the host on
 * the meeting's edit page. The server's SMTP_URL points at a closed port, so every send fails.
 */
describe('invitations that could not be sent', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let meetingId: string;

  beforeAll(async () => {
    server = await startServer({
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_RETRIES: '0',
      JOB_POLL_SECONDS: '0.5',
    });
    browser = await launchBrowser();
    context = await newContext(browser, server.url);
    const page = await context.newPage();
    const email = `failures-${Date.now()}@example.com`;
    await signIn(page, { email, firstName: 'Hana', lastName: 'Host' });
    await becomePro(page, email);
    const created = await page.request.post('/api/meetings', {
      data: {
        meetingType: 'scheduled',
        title: 'Quarterly review',
        hostEmail: email,
        scheduledFor: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        duration: 60,
        timezone: 'Europe/Paris',
      },
    });
    expect(created.status()).toBe(201);
    meetingId = ((await created.json()) as { meetingId: string }).meetingId;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('answers the invitation at once and later lists the failed ones on the edit page', async () => {
    const page = await context.newPage();
    const res = await page.request.post('/api/meetings/invitations', {
      data: {
        meetingId,
        invitees: [
          { email: 'ann@example.org', name: 'Ann' },
          { email: 'bob@example.org', name: 'Bob' },
        ],
      },
    });
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ sent: 2, failed: [] });
    await eventually(
      async () =>
        (
          (await (await page.request.get(`/api/meetings/${meetingId}`)).json()) as {
            invitationFailures: unknown[];
          }
        ).invitationFailures.length,
      (n) => n === 2,
      30_000,
    );
    for (const [name, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const view = await (await newContext(browser, server.url, viewport)).newPage();
      await view.context().addCookies(await context.cookies());
      await view.goto(`/schedule?edit=${meetingId}`);
      const alert = view.getByRole('alert').filter({ hasText: 'These invitations could not be sent' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('ann@example.org');
      expect(await alert.textContent()).toContain('bob@example.org');
      await alert.scrollIntoViewIfNeeded();
      expect(await horizontalOverflow(view)).toBe(0);
      await screenshot(view, `invitation-failures-${name}`);
      await view.context().close();
    }
  }, 60_000);
});
