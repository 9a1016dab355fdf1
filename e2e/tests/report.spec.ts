import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MyMeetingsPage } from '../pages/MyMeetings.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { eventually } from '../support/poll.js';
import { speechWav } from '../support/speech.js';

const baseURL = inject('baseURL');

/** What the host's fake microphone says, in a loop, with pauses of silence between sentences. */
const SENTENCES = ['Let us review the plan for the launch.', 'Any questions so far?'];

/** "1:05" → 65 000 ms; "1:02:03" → 3 723 000 ms. */
const msOf = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0) * 1000;

/**
 * The files area and the meeting report (issue 14), on one meeting: the guest shares a file from
 * the Collaborate area's Files tab and the host sees it listed with who shared it and downloads
 * it; the host talks (a recording on its fake microphone) while the guest stays muted; then the
 * host opens the report from My Meetings and sees both people, the host's talk time (the guest's
 * is zero), the chat and file counts, and downloads the PDF, whose text holds the same.
 */
describe('files area and meeting report', () => {
  let speaker: Browser;
  let listener: Browser;
  let hostPage: Page;
  let guestPage: Page;
  let meetingId: string;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    speaker = await launchBrowser({ fakeAudioFile: speechWav(SENTENCES, { gapSeconds: 2.5 }) });
    listener = await launchBrowser();
    hostPage = await (await newContext(speaker, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    await signInAsProHost(hostPage, {
      email: 'report-host@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
    guestPage = await (await newContext(listener, baseURL)).newPage();
    errors.guest = watchErrors(guestPage);
  });
  afterAll(async () => {
    await speaker?.close();
    await listener?.close();
  });

  it('a file shared by one is listed for the other, who downloads it', async () => {
    meetingId = await createMeeting(hostPage, { title: 'Launch review' });
    const host = new RoomPage(hostPage);
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    const guest = new RoomPage(guestPage);
    await guest.open(meetingId, { name: 'Gus' });
    await guest.waitJoined();

    for (const page of [hostPage, guestPage]) {
      await page
        .getByRole('navigation', { name: 'Meeting controls' })
        .getByRole('button', { name: 'Collaborate' })
        .click();
      // "Files", not the side panel's "Chat & Files".
      await page.getByRole('tab', { name: 'Files', exact: true }).click();
      await page.getByTestId('files-area').waitFor();
    }
    await hostPage.getByText('No files yet.').waitFor();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-files-'));
    const agenda = path.join(dir, 'launch-agenda.txt');
    writeFileSync(agenda, 'Launch agenda: review, risks, dates.\n');
    await guestPage.getByTestId('files-input').setInputFiles(agenda);

    // The host's list updates by itself (file_shared), with who shared it.
    const row = hostPage.getByTestId('shared-file').filter({ hasText: 'launch-agenda.txt' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Gus');
    await screenshot(hostPage, 'collab-files-desktop');
    const [download] = await Promise.all([hostPage.waitForEvent('download'), row.getByRole('link').click()]);
    const saved = path.join(dir, 'downloaded.txt');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe('Launch agenda: review, risks, dates.\n');
    await guestPage.getByTestId('shared-file').filter({ hasText: 'launch-agenda.txt' }).waitFor();
    await guestPage.setViewportSize(VIEWPORTS.phone);
    await screenshot(guestPage, 'collab-files-phone');
    await guestPage.setViewportSize(VIEWPORTS.desktop);

    await host.sendChat('Welcome, the agenda is in Files.');
    await guest.openChat();
    await guest.chatMessages.filter({ hasText: 'Welcome, the agenda is in Files.' }).waitFor();
    expect(errors.host).toEqual([]);
    expect(errors.guest).toEqual([]);
  }, 90_000);

  it('the host reads the report: attendance, talk time, counts, and the same in the PDF', async () => {
    // The host keeps talking for a while (its microphone plays speech and silence in turn).
    await new Promise((r) => setTimeout(r, 8_000));
    await guestPage.getByRole('button', { name: 'Leave meeting' }).click();
    // The host is asked (Leave meeting, or End meeting for everyone): it leaves.
    await new RoomPage(hostPage).leave();

    const meetings = new MyMeetingsPage(hostPage);
    await meetings.open();
    await meetings.tab('Past').click();
    await meetings.card('Launch review').getByRole('link', { name: 'Report' }).click();
    await hostPage.getByRole('heading', { level: 1, name: 'Launch review' }).waitFor();
    expect(await hostPage.getByTestId('report-participants').textContent()).toBe('2');
    expect(await hostPage.getByTestId('report-chat').textContent()).toBe('1');
    expect(await hostPage.getByTestId('report-files').textContent()).toBe('1');
    const rows = hostPage.getByTestId('attendance-row');
    await eventually(
      () => rows.allTextContents(),
      (r) => r.length === 2,
    );
    const hanaRow = rows.filter({ hasText: 'Hana' });
    const gusRow = rows.filter({ hasText: 'Gus' });
    const hanaTalk = msOf((await hanaRow.getByTestId('talk-time').textContent()) ?? '');
    const hanaPresent = msOf((await hanaRow.locator('td').nth(3).textContent()) ?? '');
    // Speech with pauses: she talked for part of her time, not none of it and not all of it.
    expect(hanaTalk).toBeGreaterThan(0.2 * hanaPresent);
    expect(hanaTalk).toBeLessThan(0.95 * hanaPresent);
    expect(await gusRow.getByTestId('talk-time').textContent()).toBe('0:00');
    await hostPage.getByTestId('talk-time-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await screenshot(hostPage, 'report-desktop');

    const [download] = await Promise.all([
      hostPage.waitForEvent('download'),
      hostPage.getByTestId('report-pdf').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`meeting-report-${meetingId}.pdf`);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-pdf-')), 'report.pdf');
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Launch review');
    expect(text).toContain('Participants: 2');
    expect(text).toContain('Chat messages: 1');
    expect(text).toContain('Files shared: 1');
    expect(text).toContain('Hana (host)');
    expect(text).toContain('Gus');
    expect(text).toMatch(/Talk time\s+0:00/);

    // On a phone: one card per participant, nothing wider than the screen.
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await hostPage.getByRole('list', { name: 'Attendance' }).waitFor();
    // The chart follows the new width when its ResizeObserver fires (a frame or so; longer on a
    // busy machine), as it does when a phone turns.
    await expect
      .poll(() => hostPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        timeout: 5000,
      })
      .toBeLessThanOrEqual(0);
    await screenshot(hostPage, 'report-phone');
    // Someone else's meeting (or none): told it does not exist.
    await hostPage.goto('/meetings/000-000-001/report');
    await hostPage.getByText('This meeting does not exist, or you are not its host.').waitFor();
    expect(errors.host).toEqual([]);
  }, 90_000);
});
