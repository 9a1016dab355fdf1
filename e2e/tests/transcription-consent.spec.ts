import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MeetingTools } from '../pages/MeetingTools.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { countAudioFrames, TranscriptionConsent } from '../pages/TranscriptionConsent.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { eventually } from '../support/poll.js';
import { speechWav } from '../support/speech.js';

const baseURL = inject('baseURL');

const HOST_SAYS = ['Good morning everyone, thank you for joining the meeting today.'];
const GUEST_SAYS = ['The new website will launch next week.'];

/**
 * Issue 34, item 6: consent before transcription, in real Chromium with speaking fake
 * microphones. The Pro host turns transcription on; the unmuted guest sees the notice and the
 * badge, and its browser sends no audio at all, neither before answering nor after declining,
 * while it still sees the host's captions; the host sees that the guest declined. Allowing again
 * makes the guest's audio flow, which shows the count would have seen it.
 */
describe('consent to transcription', () => {
  let hostBrowser: Browser;
  let guestBrowser: Browser;
  let hostPage: Page;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    hostBrowser = await launchBrowser({ fakeAudioFile: speechWav(HOST_SAYS) });
    guestBrowser = await launchBrowser({ fakeAudioFile: speechWav(GUEST_SAYS) });
    hostPage = await (await newContext(hostBrowser, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    await signInAsProHost(hostPage, {
      email: 'consent-host@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
  });
  afterAll(async () => {
    await hostBrowser?.close();
    await guestBrowser?.close();
  });

  it('a guest who declines sends no audio, still sees captions, and the host sees it declined', async () => {
    const id = await createMeeting(hostPage, { title: 'Consent check' });
    const host = new RoomPage(hostPage);
    const hostTools = new MeetingTools(hostPage);
    const hostConsent = new TranscriptionConsent(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();

    const guestPage = await (await newContext(guestBrowser, baseURL)).newPage();
    errors.guest = watchErrors(guestPage);
    const sent = countAudioFrames(guestPage);
    const guest = new RoomPage(guestPage);
    const guestTools = new MeetingTools(guestPage);
    const consent = new TranscriptionConsent(guestPage);
    await guest.open(id, { name: 'Gus' });
    await guest.waitJoined();
    // Gus speaks: unmuted, his microphone would be streamed if anything let it.
    await guestPage.getByRole('button', { name: 'Unmute' }).click();
    await guestPage.getByRole('button', { name: 'Mute', exact: true }).waitFor();

    await hostTools.open();
    await hostTools.startTranscription.click();
    await hostTools.stopTranscription.waitFor();
    // The host started it: no notice for her, the badge for everyone.
    await hostConsent.badge.waitFor();
    expect(await hostConsent.notice.count()).toBe(0);

    await consent.notice.waitFor();
    await consent.badge.waitFor();
    expect(await consent.notice.textContent()).toContain('Hana turned on live transcription');
    await screenshot(guestPage, 'transcription-consent-notice-desktop');
    await guestPage.setViewportSize(VIEWPORTS.phone);
    // Hana's captions come while the notice waits: on a phone they sit above it, never over it.
    await guestPage.getByTestId('captions-overlay').waitFor({ timeout: 60_000 });
    const captionsBox = await guestPage.getByTestId('captions-overlay').boundingBox();
    const noticeBox = await consent.notice.boundingBox();
    expect(captionsBox && noticeBox).toBeTruthy();
    expect(captionsBox!.y + captionsBox!.height).toBeLessThanOrEqual(noticeBox!.y + 1);
    await screenshot(guestPage, 'transcription-consent-notice-phone');
    await guestPage.setViewportSize(VIEWPORTS.desktop);
    // Unanswered, for a while with Gus unmuted and speaking: not one frame went out.
    await guestPage.waitForTimeout(3000);
    expect(sent.frames()).toBe(0);

    await consent.declineButton.click();
    await consent.notice.waitFor({ state: 'detached' });
    expect(await consent.badge.getAttribute('aria-label')).toContain('Transcribing (not you)');
    // Only a host or whoever started it stops it for everyone: Gus's bar offers his own answer.
    await guestPage.getByRole('button', { name: 'Allow transcription' }).first().waitFor();
    expect(await guestPage.getByRole('button', { name: 'Stop AI' }).count()).toBe(0);
    expect(await guestPage.getByRole('button', { name: 'Stop Transcription' }).count()).toBe(0);

    // Gus still sees Hana's captions (and the transcript says he declined).
    await guestTools.open();
    await eventually(
      () => guestTools.lines.count(),
      (n) => n > 0,
      60_000,
    );
    expect(await guestTools.lines.first().textContent()).toContain('Hana');
    await guestPage
      .getByTestId('transcript-notice')
      .filter({ hasText: 'Gus declined to be transcribed' })
      .waitFor();
    expect(sent.frames()).toBe(0);
    await screenshot(guestPage, 'transcription-consent-declined-desktop');
    // On a phone a side panel fills the screen (Tools shows the same choice): closed, the header's
    // badge is there.
    await guestPage.setViewportSize(VIEWPORTS.phone);
    await guestPage.getByRole('button', { name: 'Close panel' }).click();
    await consent.badge.click();
    await consent.popover.waitFor();
    await screenshot(guestPage, 'transcription-consent-badge-phone');
    await guestPage.keyboard.press('Escape');
    await guestPage.setViewportSize(VIEWPORTS.desktop);

    // The host sees who declined, in People.
    await hostPage.getByRole('tab', { name: 'People' }).click();
    await eventually(
      () => hostConsent.tagOf('Gus').textContent(),
      (t) => t === 'Not transcribed',
      10_000,
    );
    await screenshot(hostPage, 'transcription-consent-host-people-desktop');

    // The server kept nothing of Gus but the notice.
    const saved = await hostPage.evaluate(async (mid) => {
      const res = await fetch(`/api/meetings/${mid}/transcripts`, { credentials: 'include' });
      return (await res.json()) as { transcripts: { speakerName: string; kind?: string }[] };
    }, id);
    expect(saved.transcripts.filter((l) => l.speakerName === 'Gus' && l.kind !== 'notice')).toEqual([]);
    expect(saved.transcripts.some((l) => l.speakerName === 'Hana' && l.kind !== 'notice')).toBe(true);
    expect(sent.frames()).toBe(0);

    // Gus changes his mind: his audio flows now (the count sees frames), and the host hears of it.
    await consent.allowAgain();
    await eventually(
      () => Promise.resolve(sent.frames()),
      (n) => n > 0,
      20_000,
    );
    await eventually(
      () => hostConsent.tagOf('Gus').count(),
      (n) => n === 0,
      10_000,
    );

    for (const [who, list] of Object.entries(errors)) expect(list, `page errors of ${who}`).toEqual([]);
    await guestPage.context().close();
  }, 180_000);
});
