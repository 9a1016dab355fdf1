import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MeetingTools } from '../pages/MeetingTools.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { eventually } from '../support/poll.js';
import { speechWav } from '../support/speech.js';

const baseURL = inject('baseURL');

/** Continuous speech (0.2 s between sentences): lines come while it goes on, never as one block. */
const SENTENCES = [
  'The new website will launch next week.',
  'Please review the design before Friday.',
  'We need two more people on the support team.',
  'The budget for the next quarter is ready.',
];

/**
 * Issue 37, "words as they are spoken": a guest sees the host's words while the host speaks
 * (interim, over the video and at the bottom of Live Transcripts), replaced by final lines that
 * are capitalised and punctuated, listed oldest first; screenshots at 1440 and 390 px.
 */
describe('captions as they are spoken', () => {
  let speaker: Browser;
  let listeners: Browser;
  let hostPage: Page;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    speaker = await launchBrowser({
      fakeAudioFile: speechWav(SENTENCES, { gapSeconds: 0.2, lastGapSeconds: 3 }),
    });
    listeners = await launchBrowser();
    hostPage = await (await newContext(speaker, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    await signInAsProHost(hostPage, {
      email: 'interim-host@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
  });
  afterAll(async () => {
    await speaker?.close();
    await listeners?.close();
  });

  it('shows interim words while the host speaks, then final lines oldest first', async () => {
    const id = await createMeeting(hostPage, { title: 'Interim captions' });
    const host = new RoomPage(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const wide = await (await newContext(listeners, baseURL, { width: 1440, height: 900 })).newPage();
    const phone = await (await newContext(listeners, baseURL, { width: 390, height: 844 })).newPage();
    errors.wide = watchErrors(wide);
    errors.phone = watchErrors(phone);
    for (const [page, name] of [
      [wide, 'Ana'],
      [phone, 'Ben'],
    ] as const) {
      const room = new RoomPage(page);
      await room.open(id, { name });
      await room.waitJoined();
    }
    const hostTools = new MeetingTools(hostPage);
    await hostTools.open();
    await hostTools.startTranscription.click();
    await hostTools.stopTranscription.waitFor();

    // Over the video (Meeting Tools closed): the words being spoken, before any final line.
    for (const [page, name] of [
      [wide, 'captions-interim-overlay-1440'],
      [phone, 'captions-interim-overlay-390'],
    ] as const) {
      await page.getByTestId('captions-interim').first().waitFor({ timeout: 60_000 });
      await screenshot(page, name);
    }

    // Live Transcripts: final lines, capitalised and punctuated, oldest first; interim at the end.
    const tools = new MeetingTools(wide);
    await tools.open();
    await eventually(
      () => tools.lines.count(),
      (n) => n >= 3,
      60_000,
    );
    const texts = await tools.originals.allTextContents();
    for (const t of texts) expect(t, t).toMatch(/^[A-Z][^]*[.?…]$/);
    const times = await tools.lines
      .locator('time')
      .evaluateAll((els) => els.map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await tools.interim.first().waitFor({ timeout: 30_000 });
    // The words being spoken are in sight at the panel's bottom, not below its fold.
    await expect.poll(() => inViewport(wide, tools.interim.first()), { timeout: 5000 }).toBe(true);
    await screenshot(wide, 'captions-transcript-panel-1440');
    const phoneTools = new MeetingTools(phone);
    await phoneTools.open();
    await phoneTools.interim.first().waitFor({ timeout: 30_000 });
    await expect.poll(() => inViewport(phone, phoneTools.interim.first()), { timeout: 5000 }).toBe(true);
    await screenshot(phone, 'captions-transcript-panel-390');

    // Nothing interim is saved: the saved transcript is the final lines only.
    const saved = await hostPage.evaluate(async (mid) => {
      const res = await fetch(`/api/meetings/${mid}/transcripts`, { credentials: 'include' });
      return (await res.json()) as { transcripts: { originalText: string }[] };
    }, id);
    expect(saved.transcripts.length).toBeGreaterThan(0);
    for (const l of saved.transcripts) expect(l.originalText).toMatch(/[.?…]$/);

    // The Pro host downloads the transcript as subtitles (issue 35 item 4); the guests see no links.
    const downloads = hostPage.getByTestId('transcript-downloads');
    await downloads.waitFor();
    const [vtt] = await Promise.all([
      hostPage.waitForEvent('download'),
      downloads.getByRole('link', { name: 'WebVTT' }).click(),
    ]);
    expect(vtt.suggestedFilename()).toMatch(/^meeting-transcript-.*\.vtt$/);
    const vttText = readFileSync((await vtt.path())!, 'utf8');
    expect(vttText).toMatch(/^WEBVTT\n/);
    expect(vttText).toContain(`<v Hana>${saved.transcripts[0]!.originalText}`);
    expect(await wide.getByTestId('transcript-downloads').count()).toBe(0);

    await hostTools.stopTranscription.click();
    for (const [who, list] of Object.entries(errors)) expect(list, `page errors of ${who}`).toEqual([]);
  }, 180_000);
});

/** Whether the element is wholly inside the viewport and not clipped by a scrolling parent. */
async function inViewport(page: Page, el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    if (r.height === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
    for (let p = node.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (!/auto|scroll|hidden/.test(s.overflowY)) continue;
      const b = p.getBoundingClientRect();
      if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
    }
    return true;
  });
}
