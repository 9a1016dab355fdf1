import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { expectMediaFrom } from '../support/media-check.js';
import { eventually } from '../support/poll.js';
import { startServer, type RunningServer } from '../support/server.js';
import { startSilentStun, type SilentStun } from '../support/silent-stun.js';

/**
 * Every way into the room brings the media, whatever the STUN servers do (issue 37 item 1). Leave
 * → Rejoin, a second link in the same tab and a socket reconnect once left the other person an
 * initial forever when the STUN servers were unreachable: the other suites run with STUN off, so
 * none of them saw it. Each path runs here with STUN off, with the default public servers (there
 * is no internet in the test's network namespace: their lookup fails) and with a STUN server on
 * loopback that reads every request and answers none.
 */

type StunSetting = 'off' | 'default' | 'silent';

function realErrors(errors: string[]): string[] {
  // The reconnect test cuts the WebSocket on purpose; the browser logs that.
  return errors.filter((e) => !e.includes('WebSocket'));
}

describe.each<StunSetting>(['off', 'default', 'silent'])('every path into the room, STUN %s', (setting) => {
  let server: RunningServer;
  let stun: SilentStun | null = null;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let hostPage: Page;
  let guestPage: Page;
  let host: RoomPage;
  let guest: RoomPage;
  let meetingId: string;
  let hostErrors: string[];
  let guestErrors: string[];
  let guestSocket: WebSocketRoute | null = null;

  beforeAll(async () => {
    if (setting === 'silent') stun = await startSilentStun();
    const STUN_URLS = setting === 'off' ? '' : setting === 'default' ? undefined : stun!.url;
    server = await startServer({ STUN_URLS });
    browser = await launchBrowser();
    const hostCtx = await newContext(browser, server.url);
    const guestCtx = await newContext(browser, server.url);
    contexts.push(hostCtx, guestCtx);
    await guestCtx.routeWebSocket(/\/ws/, (ws) => {
      guestSocket = ws;
      ws.connectToServer();
    });
    hostPage = await hostCtx.newPage();
    guestPage = await guestCtx.newPage();
    hostErrors = watchErrors(hostPage);
    guestErrors = watchErrors(guestPage);
    await signInAsProHost(hostPage, {
      email: `rejoin-${setting}@example.com`,
      firstName: 'Hana',
      lastName: 'Host',
    });
    meetingId = await createMeeting(hostPage);
    host = new RoomPage(hostPage);
    guest = new RoomPage(guestPage);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stun?.stop();
  });

  /**
   * Both see each other, and hear each other (frames decoded and audio energy rising on each
   * side); `gusHeard: false` when Gus joined muted, and then his audio must stay silent.
   */
  async function bothWays(gusHeard = true): Promise<void> {
    await expectMediaFrom(host, [{ name: 'Gus', audio: gusHeard }]);
    await expectMediaFrom(guest, [{ name: 'Hana' }]);
  }

  it('first join: the two see and hear each other', async () => {
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    await guest.open(meetingId);
    await guest.joinFromDialog('Gus');
    await bothWays();
    // The setting is the one the connections run with.
    const urls = await guestPage.evaluate(() =>
      (window.__parley?.peerConnections() ?? []).flatMap(({ pc }) =>
        (pc.getConfiguration().iceServers ?? []).flatMap((s) => s.urls),
      ),
    );
    if (setting === 'off') expect(urls).toEqual([]);
    if (setting === 'default') expect(urls.join(',')).toContain('stun.l.google.com');
    if (setting === 'silent') expect(urls).toEqual([stun!.url]);
  });

  it('Leave, then Rejoin on the "You left the meeting" card: media flows again', async () => {
    await guest.control('Leave meeting').click();
    await guestPage.getByRole('heading', { name: 'You left the meeting' }).waitFor();
    await eventually(
      () => host.remoteTiles.count(),
      (n) => n === 0,
    );
    await guestPage.getByRole('button', { name: 'Rejoin' }).click();
    await guest.waitJoined();
    await bothWays();
  });

  it('a second link, with ?name=, opened in the same tab: media flows again', async () => {
    await guest.open(meetingId, { name: 'Gus' });
    await guest.waitJoined();
    await eventually(
      () => host.remoteTiles.count(),
      (n) => n === 1,
    );
    await bothWays();
  });

  it('the bare link, then a ?name= link in the same tab: media flows again', async () => {
    // Left first, so the bare link shows the pre-join dialog (a tab still in the room rejoins).
    await guest.control('Leave meeting').click();
    await guestPage.getByRole('heading', { name: 'You left the meeting' }).waitFor();
    await guest.open(meetingId);
    await guest.preJoinName.waitFor();
    await guest.open(meetingId, { name: 'Gus' });
    await guest.waitJoined();
    // A guest's ?name= link joins with the microphone off (spec §2), as nothing was kept from
    // the join that was left.
    await bothWays(false);
  });

  it('a socket reconnect: media flows again', async () => {
    const guestId = await guest.selfId();
    expect(guestSocket).not.toBeNull();
    await guestSocket!.close({ code: 1011, reason: 'network down (test)' });
    await eventually(
      () => guest.signalState(),
      (s) => s === 'reconnecting',
    );
    await eventually(
      () => guest.signalState(),
      (s) => s === 'joined',
      20_000,
    );
    await expect(guest.selfId()).resolves.toBe(guestId);
    await bothWays(false);
  });

  it('no script errors on either page', () => {
    if (stun) expect(stun.received(), 'the silent STUN server was never asked').toBeGreaterThan(0);
    expect(realErrors(hostErrors)).toEqual([]);
    expect(realErrors(guestErrors)).toEqual([]);
  });
});

describe('a tile waiting for media (default STUN servers, unreachable)', () => {
  let server: RunningServer;
  let browser: Browser;
  let hostPage: Page;
  let guestPage: Page;
  let host: RoomPage;
  let guest: RoomPage;
  let meetingId: string;
  /** While set, the guest's offers, answers and candidates never reach the server. */
  let holdSignals = false;

  beforeAll(async () => {
    server = await startServer({ STUN_URLS: undefined });
    browser = await launchBrowser();
    const hostCtx = await newContext(browser, server.url);
    const guestCtx = await newContext(browser, server.url);
    await guestCtx.routeWebSocket(/\/ws/, (ws) => {
      const toServer = ws.connectToServer();
      ws.onMessage((m) => {
        if (holdSignals && typeof m === 'string' && /"type":"(offer|answer|ice-candidate)"/.test(m)) return;
        toServer.send(m);
      });
    });
    hostPage = await hostCtx.newPage();
    guestPage = await guestCtx.newPage();
    await signInAsProHost(hostPage, {
      email: 'rejoin-tile@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
    meetingId = await createMeeting(hostPage);
    host = new RoomPage(hostPage);
    guest = new RoomPage(guestPage);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says "Connecting...", then "Could not connect" with Retry, and Retry brings the media', async () => {
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    holdSignals = true;
    await guest.open(meetingId);
    await guest.joinFromDialog('Gus');
    const tile = host.remoteTiles.first();
    await tile.getByRole('status').filter({ hasText: 'Connecting...' }).waitFor();
    await expect(tile.getByText('Video off').count()).resolves.toBe(0);
    await screenshot(hostPage, 'rejoin-tile-connecting-desktop');
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await screenshot(hostPage, 'rejoin-tile-connecting-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);

    // 15 s without media: told so, with a way to try again.
    const failed = tile.getByRole('alert').filter({ hasText: 'Could not connect' });
    await failed.waitFor({ timeout: 25_000 });
    await screenshot(hostPage, 'rejoin-tile-could-not-connect-desktop');
    await hostPage.setViewportSize(VIEWPORTS.phone);
    await screenshot(hostPage, 'rejoin-tile-could-not-connect-phone');
    await hostPage.setViewportSize(VIEWPORTS.desktop);
    await expect(host.remoteMedia()).resolves.toSatisfy((s: { connection: string | null }[]) =>
      s.every((x) => x.connection !== 'connected'),
    );

    holdSignals = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expectMediaFrom(host, [{ name: 'Gus' }]);
    await expectMediaFrom(guest, [{ name: 'Hana' }]);
    await expect(tile.getByRole('alert').count()).resolves.toBe(0);
  });
});
