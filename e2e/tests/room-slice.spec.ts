import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import {
  VIEWPORTS,
  horizontalOverflow,
  launchBrowser,
  newContext,
  screenshot,
  watchErrors,
} from '../support/browser.js';
import { expectMediaFrom } from '../support/media-check.js';
import { recordMediaTracks, recordedTracks } from '../support/media-tracks.js';
import { boxesOverlap, eventually, insideViewport } from '../support/poll.js';

const baseURL = inject('baseURL');

const MIC_DENIED = 'Microphone access denied. Please allow microphone access in your browser settings.';

/**
 * The room slice as a person meets it: joining by link, Mute All for late joiners and across a
 * host reload, knocks reaching the host outside the People panel, and device failures shown.
 */
describe('room slice', () => {
  let browser: Browser;
  let hostPage: Page;
  let host: RoomPage;
  const pageErrors: Record<string, string[]> = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    hostPage = await (await newContext(browser, baseURL)).newPage();
    pageErrors.host = watchErrors(hostPage);
    host = new RoomPage(hostPage);
    await signInAsProHost(hostPage, { email: 'slice-host@example.com', firstName: 'Hana', lastName: 'Host' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function guest(name: string): Promise<{ page: Page; room: RoomPage; ctx: BrowserContext }> {
    const ctx = await newContext(browser, baseURL);
    const page = await ctx.newPage();
    pageErrors[name] = watchErrors(page);
    return { page, room: new RoomPage(page), ctx };
  }

  it('a guest opening /meeting/{id}?name=Gus is in the room without a dialog', async () => {
    const id = await createMeeting(hostPage);
    const { page, room, ctx } = await guest('Gus');
    await room.watchDialogs();
    await room.open(id, { name: 'Gus' });
    // Whichever comes first: the room, or a dialog asking for what the link already said.
    await page.locator('[data-testid="meeting-room"], [role="dialog"]').first().waitFor({ timeout: 20_000 });
    expect(await page.getByRole('dialog').count(), 'a dialog was shown').toBe(0);
    await room.waitJoined();
    expect(await room.dialogsSeen(), 'a dialog came and went').toBe(0);
    await expect(room.participantCount.textContent()).resolves.toBe('1 participant');
    // The name from the link is the one the others see.
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    await host.remoteTiles.first().waitFor();
    await expect(host.remoteTiles.first().textContent()).resolves.toContain('Gus');
    // A guest joining by link starts muted (the "join muted" default): seen, not heard. The host's
    // own link joins with the microphone on.
    await expectMediaFrom(host, [{ name: 'Gus', audio: false }]);
    await expectMediaFrom(room, [{ name: 'Hana' }]);
    await ctx.close();
  });

  it('after Mute All a late joiner arrives muted, and Unmute All survives the host reloading', async () => {
    const id = await createMeeting(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    await expect(host.muteAllToggle.textContent()).resolves.toBe('Mute All');
    await host.muteAll.click();
    await host.controls.getByRole('button', { name: 'Unmute All' }).waitFor();

    const { room, ctx } = await guest('Lea');
    await room.open(id);
    // She turns her microphone on in the pre-join dialog; the room is muted, so it stays off.
    await room.joinFromDialog('Lea', { micOn: true });
    await room.control('Unmute').waitFor({ timeout: 5000 });
    await eventually(
      () => room.sendingAudioEnabled(),
      (v) => v.length === 1 && v[0] === false,
    );
    await host.remoteTiles.first().getByLabel('Muted').waitFor();

    await hostPage.reload();
    await host.waitJoined();
    await host.controls.getByRole('button', { name: 'Unmute All' }).waitFor({ timeout: 5000 });
    await expect(host.muteAllToggle.textContent()).resolves.toBe('Unmute All');
    // After the reload the host sees Lea again and still hears nothing from her; she hears him.
    await expectMediaFrom(host, [{ name: 'Lea', audio: false }]);
    await expectMediaFrom(room, [{ name: 'Hana' }]);
    await ctx.close();
  });

  it('a knock shows Admit and Deny to a host whose side panel is closed; Admit lets the guest in', async () => {
    const id = await createMeeting(hostPage, { waitingRoom: true });
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    expect(await hostPage.getByRole('tab').count(), 'the side panel is closed').toBe(0);

    const gus = await guest('Gus-waiting');
    await gus.room.open(id);
    await gus.room.joinFromDialog('Gus', { micOn: false, waitForRoom: false });
    await gus.page.getByRole('heading', { name: 'Waiting for the host' }).waitFor();

    const notice = host.knockNotice;
    await notice.getByRole('alert').getByText('Gus wants to join').waitFor({ timeout: 5000 });
    const admit = notice.getByRole('button', { name: 'Admit Gus' });
    await notice.getByRole('button', { name: 'Deny Gus' }).waitFor();
    expect(await insideViewport(hostPage, notice)).toBe(true);
    expect(await boxesOverlap(notice, host.controls)).toBe(false);
    await screenshot(hostPage, 'room-knock-desktop');

    // On a phone the notice fits the width and leaves the controls usable.
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await admit.waitFor();
    expect(await insideViewport(hostPage, notice)).toBe(true);
    expect(await boxesOverlap(notice, host.controls)).toBe(false);
    expect(await horizontalOverflow(hostPage)).toBe(0);
    await screenshot(hostPage, 'room-knock-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);

    // Admit from the keyboard.
    await admit.focus();
    await hostPage.keyboard.press('Enter');
    await gus.room.waitJoined();
    await notice.waitFor({ state: 'detached', timeout: 5000 });
    await host.remoteTiles.first().waitFor();
    await expect(host.remoteTiles.first().textContent()).resolves.toContain('Gus');
    // Admitted with his microphone off: the host sees him but does not hear him.
    await expectMediaFrom(host, [{ name: 'Gus', audio: false }]);
    await expectMediaFrom(gus.room, [{ name: 'Hana' }]);

    // With the chat open the next knock still reaches the host; Deny keeps that guest out.
    await host.openChat();
    const dan = await guest('Dan');
    await dan.room.open(id);
    await dan.room.joinFromDialog('Dan', { micOn: false, waitForRoom: false });
    await notice.getByText('Dan wants to join').waitFor({ timeout: 5000 });
    const chatInput = hostPage.getByPlaceholder('Type a message...');
    expect(await boxesOverlap(notice, chatInput)).toBe(false);
    await screenshot(hostPage, 'room-knock-chat-open-desktop');
    // On a phone the chat fills the screen; the notice shows over it and leaves its input free.
    await hostPage.setViewportSize(VIEWPORTS.phone);
    expect(await insideViewport(hostPage, notice)).toBe(true);
    expect(await boxesOverlap(notice, chatInput)).toBe(false);
    await screenshot(hostPage, 'room-knock-chat-open-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);
    await notice.getByRole('button', { name: 'Deny Dan' }).click();
    await dan.page.getByRole('heading', { name: 'The host did not let you in' }).waitFor();
    await notice.waitFor({ state: 'detached', timeout: 5000 });

    // A knock handled elsewhere (here: the guest gives up waiting) leaves the notice too.
    const wes = await guest('Wes');
    await wes.room.open(id);
    await wes.room.joinFromDialog('Wes', { micOn: false, waitForRoom: false });
    await notice.getByText('Wes wants to join').waitFor({ timeout: 5000 });
    await wes.page.getByRole('button', { name: 'Leave', exact: true }).click();
    await notice.waitFor({ state: 'detached', timeout: 5000 });
    for (const g of [gus, dan, wes]) await g.ctx.close();
  });

  it('a removed guest cannot rejoin (the server says why) until the host allows them back', async () => {
    const id = await createMeeting(hostPage);
    await host.open(id, { name: 'Hana', host: true });
    await host.waitJoined();
    const rex = await guest('Rex');
    await rex.room.open(id, { name: 'Rex' });
    await rex.room.waitJoined();

    await host.openPeople();
    await host.peoplePanel.getByRole('button', { name: 'Remove Rex' }).click();
    // The app's own confirmation, not the browser's: Cancel keeps Rex, at desktop and phone width.
    const confirm = hostPage.getByRole('dialog', { name: 'Remove Rex from the meeting?' });
    await confirm.waitFor();
    await screenshot(hostPage, 'room-remove-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await host.peoplePanel.getByRole('button', { name: 'Remove Rex' }).click();
    await confirm.waitFor();
    expect(await insideViewport(hostPage, confirm)).toBe(true);
    await screenshot(hostPage, 'room-remove-confirm-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);
    await hostPage
      .getByRole('dialog', { name: 'Remove Rex from the meeting?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await rex.page.getByRole('heading', { name: 'You were removed from the meeting' }).waitFor();
    const allowBack = host.removedSection.getByRole('button', { name: 'Allow Rex back' });
    await allowBack.waitFor({ timeout: 5000 });
    await expect(host.removedSection.textContent()).resolves.toContain('Rex');
    await screenshot(hostPage, 'room-removed-list-desktop');
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await allowBack.waitFor();
    expect(await insideViewport(hostPage, allowBack)).toBe(true);
    expect(await horizontalOverflow(hostPage)).toBe(0);
    await screenshot(hostPage, 'room-removed-list-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);

    // Opening the link again (same tab, same session): the join call is refused with the server's words.
    await rex.room.open(id, { name: 'Rex' });
    await rex.page
      .getByText('The host removed you from this meeting. You cannot join it again.', { exact: true })
      .waitFor({ timeout: 10_000 });
    await screenshot(rex.page, 'room-rejoin-refused-desktop');

    await allowBack.click();
    await host.removedSection.waitFor({ state: 'detached', timeout: 5000 });
    await rex.room.open(id, { name: 'Rex' });
    await rex.room.waitJoined();
    await host.peoplePanel.getByText('Rex', { exact: true }).waitFor();
    await rex.ctx.close();
  });

  it('a page whose microphone is refused says so in the pre-join and the room, and Retry recovers', async () => {
    const id = await createMeeting(hostPage);
    // No fake permission prompt: the context allows the camera only, so the microphone is refused
    // as when a person blocks it, and the app meets a real NotAllowedError.
    const refusing = await launchBrowser({ answerPrompts: false });
    try {
      const ctx = await newContext(refusing, baseURL, VIEWPORTS.desktop, ['camera']);
      await recordMediaTracks(ctx);
      const page = await ctx.newPage();
      pageErrors.Mia = watchErrors(page);
      const room = new RoomPage(page);
      await room.open(id);

      const micAlert = room.mediaAlert('Microphone');
      await micAlert.getByText(MIC_DENIED).waitFor();
      // The camera was allowed and still works: the preview plays and no camera alert is shown.
      await eventually(
        () => room.preJoinPreview.evaluate((v) => (v as HTMLVideoElement).videoWidth),
        (w) => w > 0,
      );
      expect(await room.mediaAlert('Camera').count()).toBe(0);
      await screenshot(page, 'room-mic-denied-prejoin-desktop');
      // On a phone the alert fits in the dialog and Join Meeting stays on screen.
      await page.setViewportSize(VIEWPORTS.phone);
      expect(await insideViewport(page, micAlert)).toBe(true);
      expect(await insideViewport(page, room.joinButton)).toBe(true);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, 'room-mic-denied-prejoin-phone');
      await page.setViewportSize(VIEWPORTS.desktop);

      await room.joinFromDialog('Mia', { micOn: false });
      await micAlert.getByText(MIC_DENIED).waitFor();
      expect(await insideViewport(page, micAlert)).toBe(true);
      expect(await boxesOverlap(micAlert, room.controls)).toBe(false);
      await screenshot(page, 'room-mic-denied-desktop');
      await page.setViewportSize(VIEWPORTS.phone);
      expect(await insideViewport(page, micAlert)).toBe(true);
      expect(await boxesOverlap(micAlert, room.controls)).toBe(false);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, 'room-mic-denied-phone');
      await page.setViewportSize(VIEWPORTS.desktop);

      // Still refused: Retry leaves the alert up. `exact`: 'Retry' alone also names the button while
      // it says 'Retrying...', and permission granted before that retry ended let it succeed (CI).
      const retryButton = micAlert.getByRole('button', { name: 'Retry', exact: true });
      await retryButton.click();
      await retryButton.waitFor();
      await micAlert.getByText(MIC_DENIED).waitFor();
      // The person allows the microphone and retries: the alert goes, the microphone is live.
      await ctx.grantPermissions(['camera', 'microphone']);
      await retryButton.click();
      await micAlert.waitFor({ state: 'detached', timeout: 5000 });
      const tracks = await recordedTracks(page);
      expect(tracks.live).toContain('getUserMedia:audio');
      expect(tracks.live).toContain('getUserMedia:video');
    } finally {
      await refusing.close();
    }
  });

  it('a page whose camera is refused shows the camera alert and keeps the microphone', async () => {
    const id = await createMeeting(hostPage);
    const refusing = await launchBrowser({ answerPrompts: false });
    try {
      const ctx = await newContext(refusing, baseURL, VIEWPORTS.desktop, ['microphone']);
      await recordMediaTracks(ctx);
      const page = await ctx.newPage();
      pageErrors.Cam = watchErrors(page);
      const room = new RoomPage(page);
      await room.open(id, { name: 'Cam' });
      await room.waitJoined();
      await room
        .mediaAlert('Camera')
        .getByText('Camera permission denied. Please allow camera access in your browser settings.')
        .waitFor();
      await room.selfTile.getByText('Camera error').waitFor();
      expect(await room.mediaAlert('Microphone').count()).toBe(0);
      const tracks = await recordedTracks(page);
      expect(tracks.live).toEqual(['getUserMedia:audio']);
      await screenshot(page, 'room-camera-denied-desktop');
    } finally {
      await refusing.close();
    }
  });

  it('ran without script errors', () => {
    for (const [who, errors] of Object.entries(pageErrors)) expect(errors, who).toEqual([]);
  });
});
