import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Collaborate } from '../pages/Collaborate.js';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { eventually } from '../support/poll.js';

const baseURL = inject('baseURL');

/**
 * The meeting's whiteboard and notes (issue 14): two people draw and type at the same time and
 * end with the same board and notes; one who drops for 10 s mid-edit loses nothing and gets what
 * the other did meanwhile; a late joiner sees the current board.
 */
describe('collaboration in the meeting', () => {
  let browser: Browser;
  let other: Browser;
  let hostPage: Page;
  let guestContext: BrowserContext;
  let guestPage: Page;
  let meetingId: string;
  const errors: Record<string, string[]> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    other = await launchBrowser();
    hostPage = await (await newContext(browser, baseURL)).newPage();
    errors.host = watchErrors(hostPage);
    await signInAsProHost(hostPage, {
      email: 'collab-host@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
    guestContext = await newContext(other, baseURL);
    guestPage = await guestContext.newPage();
    errors.guest = watchErrors(guestPage);
  });
  afterAll(async () => {
    await browser?.close();
    await other?.close();
  });

  const ids = (els: { id: string }[]) => els.map((e) => e.id).join(',');

  it('two people draw and type at the same time and converge', async () => {
    meetingId = await createMeeting(hostPage, { title: 'Design review' });
    const hostRoom = new RoomPage(hostPage);
    await hostRoom.open(meetingId, { name: 'Hana', host: true });
    await hostRoom.waitJoined();
    const guestRoom = new RoomPage(guestPage);
    await guestRoom.open(meetingId, { name: 'Gus' });
    await guestRoom.waitJoined();
    const host = new Collaborate(hostPage);
    const guest = new Collaborate(guestPage);
    await Promise.all([host.open(), guest.open()]);
    await Promise.all([host.whiteboard(), guest.whiteboard()]);

    await Promise.all([host.drawRectangle(80, 80), guest.drawRectangle(300, 200)]);
    await Promise.all([host.drawRectangle(80, 250), guest.drawRectangle(300, 350)]);
    const board = await eventually(
      async () => [await host.elements(), await guest.elements()],
      ([a, b]) => a!.length === 4 && ids(a!) === ids(b!),
    );
    expect(board[0]!.every((e) => e.type === 'rectangle')).toBe(true);
    // The other's shapes are drawn on each screen, not only in the document.
    await screenshot(hostPage, 'collab-whiteboard-desktop');

    await Promise.all([host.notes(), guest.notes()]);
    // Both type at once, at different places: the same place would interleave their letters.
    await host.typeNotes('Notes: ');
    await eventually(
      () => guest.notesText(),
      (t) => t.includes('Notes:'),
    );
    await Promise.all([
      host.typeNotes('Hana writes the agenda. '),
      guest.typeNotes('Gus adds a risk. ', 'start'),
    ]);
    const notes = await eventually(
      async () => [await host.notesText(), await guest.notesText()],
      ([a, b]) => a === b && a!.includes('Hana writes the agenda.') && a!.includes('Gus adds a risk.'),
    );
    expect(await host.notesEditor.textContent()).toBe(notes[0]);
    await screenshot(guestPage, 'collab-notes-desktop');
    expect(errors.host).toEqual([]);
    expect(errors.guest).toEqual([]);
  });

  it('a participant who drops for 10 s mid-edit loses nothing and gets what the other did', async () => {
    const host = new Collaborate(hostPage);
    const guest = new Collaborate(guestPage);
    await Promise.all([host.whiteboard(), guest.whiteboard()]);
    await guestContext.setOffline(true);
    await guest.drawRectangle(500, 120);
    await host.drawRectangle(500, 300);
    await guest.notes();
    await guest.typeNotes('Written offline. ');
    await new Promise((r) => setTimeout(r, 10_000));
    await guestContext.setOffline(false);
    await guest.whiteboard();
    const board = await eventually(
      async () => [await host.elements(), await guest.elements()],
      ([a, b]) => a!.length === 6 && ids(a!) === ids(b!),
      45_000,
    );
    expect(board[0]!.length).toBe(6);
    await eventually(
      () => host.notesText(),
      (t) => t.includes('Written offline.') && t.includes('Gus adds a risk.'),
    );
    expect(await guest.notesText()).toBe(await host.notesText());
  });

  it('a late joiner sees the current board, on a phone too', async () => {
    const page = await (await newContext(other, baseURL, VIEWPORTS.phone)).newPage();
    errors.late = watchErrors(page);
    const room = new RoomPage(page);
    await room.open(meetingId, { name: 'Lena' });
    await room.waitJoined();
    const late = new Collaborate(page);
    await late.open();
    await late.whiteboard();
    const host = new Collaborate(hostPage);
    const expected = ids(await host.elements());
    await eventually(
      async () => ids(await late.elements()),
      (v) => v === expected,
    );
    await screenshot(page, 'collab-whiteboard-phone');
    await late.notesByKeyboard();
    expect(await late.notesText()).toBe(await host.notesText());
    expect(await late.notesEditor.textContent()).toContain('Written offline.');
    await screenshot(page, 'collab-notes-phone');
    expect(errors.late).toEqual([]);
  });

  it('the host reads the notes afterwards from My Meetings', async () => {
    for (const [viewport, name] of [
      [VIEWPORTS.desktop, 'desktop'],
      [VIEWPORTS.phone, 'phone'],
    ] as const) {
      const page = await hostPage.context().newPage();
      await page.setViewportSize(viewport);
      await page.goto(`/meetings/${meetingId}/notes`);
      const article = page.getByTestId('meeting-notes');
      await article.waitFor();
      const text = (await article.textContent()) ?? '';
      expect(text).toContain('Hana writes the agenda.');
      expect(text).toContain('Written offline.');
      await screenshot(page, `collab-meeting-notes-${name}`);
      await page.close();
    }
    // Nobody else: the guest's browser is not signed in as the owner.
    const res = await guestPage.request.get(`/api/meetings/${meetingId}/notes`);
    expect(res.status()).toBe(401);
  });

  it('exports the board as a PNG', async () => {
    const host = new Collaborate(hostPage);
    await host.whiteboard();
    const [download] = await Promise.all([hostPage.waitForEvent('download'), host.exportPng.click()]);
    expect(download.suggestedFilename()).toBe(`whiteboard-${meetingId}.png`);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(path);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(1000);
  });
});
