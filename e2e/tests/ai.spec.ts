import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { MeetingTools } from '../pages/MeetingTools.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { eventually } from '../support/poll.js';
import { speechWav, wordOverlap } from '../support/speech.js';

const baseURL = inject('baseURL');

/** What the speaker's fake microphone says, in a loop. */
const SENTENCES = [
  'Good morning everyone, thank you for joining the meeting today.',
  'The new website will launch next week.',
  'Please review the design before Friday.',
];
const REFERENCE = SENTENCES.join(' ');

/**
 * The Pro plan's AI as people use it: a Pro host's microphone (a known English recording) is
 * captioned on the guests' screens by the embedded engine, translated into Spanish for the guest
 * who chose it and not for the one who did not; a free user meets the upgrade dialog and the
 * server's 403; a summary of the meeting's conversation finds its action items with owners and
 * dates, and the exported PDF contains them.
 */
describe('AI in the meeting', () => {
  let speaker: Browser;
  let listeners: Browser;
  let hostPage: Page;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    speaker = await launchBrowser({ fakeAudioFile: speechWav(SENTENCES) });
    listeners = await launchBrowser();
    hostPage = await (await newContext(speaker, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    await signInAsProHost(hostPage, { email: 'ai-host@example.com', firstName: 'Hana', lastName: 'Host' });
  });
  afterAll(async () => {
    await speaker?.close();
    await listeners?.close();
  });

  async function guest(name: string, viewport: { width: number; height: number } = VIEWPORTS.desktop) {
    const page = await (await newContext(listeners, baseURL, viewport)).newPage();
    errors[name] = watchErrors(page);
    return { page, room: new RoomPage(page), tools: new MeetingTools(page) };
  }

  it("captions the host's speech for the guests, in Spanish for the one who chose it", async () => {
    const id = await createMeeting(hostPage, { title: 'Website launch' });
    const host = new RoomPage(hostPage);
    const hostTools = new MeetingTools(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    // Guests join by link muted (the default): only the host's speech is heard.
    const ana = await guest('Ana');
    const ben = await guest('Ben', VIEWPORTS.phone);
    for (const [g, name] of [
      [ana, 'Ana'],
      [ben, 'Ben'],
    ] as const) {
      await g.room.open(id, { name });
      await g.room.waitJoined();
    }
    await ana.tools.translateInto('es');

    await hostTools.open();
    await hostTools.startTranscription.click();
    await hostTools.stopTranscription.waitFor();
    // Everyone sees that it is on, and who started it.
    await ben.tools.open();
    await eventually(
      () => ben.tools.status.textContent(),
      (t) => !!t?.includes('started by Hana'),
      10_000,
    );

    // Captions arrive on the guests' screens; enough of them to cover the three sentences.
    await eventually(
      () => ana.tools.captionText(),
      (heard) => wordOverlap(REFERENCE, heard) >= 0.6,
      60_000,
    );
    const heard = await ana.tools.captionText();
    console.info(
      `captions on Ana's screen: "${heard}" (overlap ${wordOverlap(REFERENCE, heard).toFixed(2)})`,
    );
    await eventually(
      () => ben.tools.lines.count(),
      (n) => n > 0,
      10_000,
    );
    expect(await ana.tools.lines.first().textContent()).toContain('Hana');

    // Ana asked for Spanish: her lines carry a translation; Ben's carry none. The Spanish pipeline
    // starts at its first line (apertium's processes): on a starved machine that took over 10 s.
    await eventually(
      () => ana.tools.translations.count(),
      (n) => n > 0,
      30_000,
    );
    const spanish = (await ana.tools.translations.allTextContents()).join(' ').toLowerCase();
    expect(spanish).toMatch(/\b(el|la|los|las|de|que|para|por|semana|diseño|reunión)\b/);
    expect(await ben.tools.translations.count()).toBe(0);

    await screenshot(ana.page, 'ai-captions-desktop');
    await screenshot(ben.page, 'ai-captions-phone');

    // The whole transcript is kept with speakers and times.
    const saved = await hostPage.evaluate(async (mid) => {
      const res = await fetch(`/api/meetings/${mid}/transcripts`, { credentials: 'include' });
      return (await res.json()) as { transcripts: { speakerName: string; originalText: string }[] };
    }, id);
    expect(saved.transcripts.length).toBeGreaterThan(0);
    expect(saved.transcripts.every((l) => l.speakerName === 'Hana')).toBe(true);

    await hostTools.stopTranscription.click();
    await eventually(
      () => ana.tools.status.textContent(),
      (t) => !!t?.startsWith('Off'),
      10_000,
    );

    // A guest who reloads sees the last lines again: the server sends them on entering.
    const before = await ben.tools.lines.count();
    await ben.page.reload();
    await ben.room.waitJoined();
    await ben.tools.open();
    await eventually(
      () => ben.tools.lines.count(),
      (n) => n >= Math.min(before, 20),
      15_000,
    );
    expect(await ben.tools.lines.first().textContent()).toContain('Hana');

    for (const [who, list] of Object.entries(errors)) expect(list, `page errors of ${who}`).toEqual([]);
    await ana.page.context().close();
    await ben.page.context().close();
  }, 150_000);

  it('a free user gets the upgrade dialog in the room and the 403 from the server', async () => {
    const id = await createMeeting(hostPage);
    const page = await (await newContext(listeners, baseURL)).newPage();
    await signIn(page, { email: 'ai-free@example.com', firstName: 'Fay', lastName: 'Free' });
    const room = new RoomPage(page);
    await room.open(id, { name: 'Fay' });
    await room.waitJoined();
    await page.getByRole('button', { name: 'Start AI' }).click();
    await page.getByRole('dialog', { name: 'Upgrade to Pro for AI Features' }).waitFor();
    await page.getByRole('button', { name: 'Maybe Later' }).click();
    const tools = new MeetingTools(page);
    await tools.open();
    await tools.generateSummary.click();
    await page.getByRole('dialog', { name: 'Upgrade to Pro for AI Features' }).waitFor();
    const probe = await page.evaluate(async () => {
      const res = await fetch('/api/meetings/test/transcripts', { credentials: 'include' });
      return { status: res.status, body: (await res.json()) as { requiresSubscription?: boolean } };
    });
    expect(probe).toEqual({ status: 403, body: expect.objectContaining({ requiresSubscription: true }) });
    await page.context().close();
  });

  it('summarises the conversation with owners and due dates, and the PDF holds them', async () => {
    const id = await createMeeting(hostPage, { title: 'Budget review' });
    const host = new RoomPage(hostPage);
    const tools = new MeetingTools(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const luis = await guest('Luis');
    await luis.room.open(id, { name: 'Luis' });
    await luis.room.waitJoined();
    // The conversation, as chat (the summary reads the transcript and the chat).
    await host.sendChat('Luis, could you send the updated budget to finance by Friday?');
    await luis.room.sendChat("Sure, I'll send it by Friday.");
    await host.sendChat("We agreed to move the launch to March. I'll update the roadmap tomorrow.");
    await eventually(
      () => host.chatMessages.count(),
      (n) => n === 3,
      10_000,
    );

    await tools.open();
    await tools.generateSummary.click();
    await tools.summary.waitFor({ timeout: 20_000 });
    const items = await hostPage.getByTestId('summary-action-items').textContent();
    expect(items).toMatch(/budget/i);
    expect(items).toMatch(/owner: Luis/);
    expect(items).toMatch(/due \d{4}-\d{2}-\d{2}/);
    await screenshot(hostPage, 'ai-summary-desktop');

    const [download] = await Promise.all([hostPage.waitForEvent('download'), tools.exportPdf.click()]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^meeting-summary-${id}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`),
    );
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-pdf-')), 'summary.pdf');
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Action Items');
    expect(text).toMatch(/budget/i);
    expect(text).toContain('owner: Luis');
    expect(text).toMatch(/Attendees[\s\S]*Luis/);
    await luis.page.context().close();
  }, 90_000);
});
