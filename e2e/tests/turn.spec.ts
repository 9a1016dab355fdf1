import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { launchBrowser, newContext, watchErrors } from '../support/browser.js';
import { expectMediaFrom } from '../support/media-check.js';
import { eventually } from '../support/poll.js';
import { startServer, type RunningServer } from '../support/server.js';
import { startTurn, turnInstalled, type Turn } from '../support/turn.js';

const SECRET = 'e2e-turn-secret';
const installed = turnInstalled();
if (!installed)
  console.warn('SKIPPED turn.spec.ts: `turnserver` is not installed (bash scripts/install-system-deps.sh)');

interface SelectedPair {
  state: string;
  local: string;
  remote: string;
  bytesReceived: number;
}

/** Each peer connection's selected candidate pair: the candidate types of both ends. */
function selectedPairs(page: Page): Promise<SelectedPair[]> {
  return page.evaluate(async () => {
    const out: SelectedPair[] = [];
    for (const { pc } of window.__parley?.peerConnections() ?? []) {
      const stats = new Map<string, Record<string, unknown>>();
      (await pc.getStats()).forEach((s: Record<string, unknown>) => stats.set(s.id as string, s));
      for (const t of stats.values()) {
        if (t.type !== 'transport' || !t.selectedCandidatePairId) continue;
        const pair = stats.get(t.selectedCandidatePairId as string);
        if (!pair) continue;
        out.push({
          state: pair.state as string,
          local: stats.get(pair.localCandidateId as string)?.candidateType as string,
          remote: stats.get(pair.remoteCandidateId as string)?.candidateType as string,
          bytesReceived: (pair.bytesReceived as number) ?? 0,
        });
      }
    }
    return out;
  });
}

interface Gathered {
  types: string[];
  errors: number[];
}

/** What a bare relay-only RTCPeerConnection gathers with these TURN credentials. */
function gatherRelay(page: Page, server: RTCIceServer): Promise<Gathered> {
  return page.evaluate(async (server) => {
    const pc = new RTCPeerConnection({ iceServers: [server], iceTransportPolicy: 'relay' });
    const out: { types: string[]; errors: number[] } = { types: [], errors: [] };
    pc.onicecandidateerror = (e) => out.errors.push((e as RTCPeerConnectionIceErrorEvent).errorCode);
    pc.onicecandidate = (e) => {
      if (e.candidate?.candidate) out.types.push(e.candidate.type ?? '?');
    };
    const done = new Promise<void>((resolve) => {
      pc.onicegatheringstatechange = () => {
        if (pc.iceGatheringState === 'complete') resolve();
      };
      setTimeout(resolve, 10_000);
    });
    pc.createDataChannel('probe');
    await pc.setLocalDescription();
    await done;
    pc.close();
    return out;
  }, server);
}

/** coturn's REST credentials, computed here independently of the server's ice.ts. */
function credentials(
  expiryUnix: number,
  id: string,
  secret = SECRET,
): { username: string; credential: string } {
  const username = `${expiryUnix}:${id}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

describe.skipIf(!installed)('TURN relay through coturn', () => {
  let turn: Turn;
  let server: RunningServer;
  let browser: Browser;
  let hostPage: Page;
  let guestPage: Page;
  let host: RoomPage;
  let guest: RoomPage;
  let meetingId: string;
  let hostErrors: string[];
  let guestErrors: string[];

  beforeAll(async () => {
    turn = await startTurn(SECRET);
    server = await startServer({
      TURN_URLS: `turn:127.0.0.1:${turn.port}?transport=udp`,
      TURN_SECRET: SECRET,
    });
    browser = await launchBrowser();
    const hostCtx = await newContext(browser, server.url);
    const guestCtx = await newContext(browser, server.url);
    // The guest's browser is set to relay only (docs/media.md, "Relay only"): it offers no address
    // of its own.
    await guestCtx.addInitScript(() => {
      try {
        localStorage.setItem('parley.iceTransportPolicy', 'relay');
      } catch {
        // about:blank has no storage
      }
    });
    hostPage = await hostCtx.newPage();
    guestPage = await guestCtx.newPage();
    hostErrors = watchErrors(hostPage);
    guestErrors = watchErrors(guestPage);
    await signInAsProHost(hostPage, { email: 'turn-host@example.com', firstName: 'Hana', lastName: 'Host' });
    meetingId = await createMeeting(hostPage);
    host = new RoomPage(hostPage);
    guest = new RoomPage(guestPage);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await turn?.stop();
  });

  it('a participant forced to relay only sees and hears the other, through coturn', async () => {
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    await guest.open(meetingId);
    await guest.joinFromDialog('Rita');
    await expectMediaFrom(host, [{ name: 'Rita' }]);
    await expectMediaFrom(guest, [{ name: 'Hana' }]);

    const policies = await guestPage.evaluate(() =>
      (window.__parley?.peerConnections() ?? []).map(({ pc }) => pc.getConfiguration().iceTransportPolicy),
    );
    expect(policies).toEqual(['relay']);
    // The guest's end of the pair in use is its TURN allocation, on both sides' view of it.
    const guestPairs = await selectedPairs(guestPage);
    expect(guestPairs).toHaveLength(1);
    expect(guestPairs[0]).toMatchObject({ state: 'succeeded', local: 'relay' });
    expect(guestPairs[0]!.bytesReceived).toBeGreaterThan(0);
    const hostPairs = await selectedPairs(hostPage);
    expect(hostPairs).toHaveLength(1);
    expect(hostPairs[0]).toMatchObject({ state: 'succeeded', local: 'host', remote: 'relay' });
    // The host's own connection is not relay only.
    const hostPolicies = await hostPage.evaluate(() =>
      (window.__parley?.peerConnections() ?? []).map(({ pc }) => pc.getConfiguration().iceTransportPolicy),
    );
    expect(hostPolicies).toEqual(['all']);

    // coturn allocated for the credentials the server gave the guest in `joined`.
    const guestId = await guestPage.evaluate(() => window.__parley?.selfId() ?? null);
    expect(guestId).toBeTruthy();
    await eventually(
      () => Promise.resolve(turn.logs.join('')),
      (log) => new RegExp(`<\\d+:${guestId}>`).test(log),
      5_000,
    );
    expect(hostErrors).toEqual([]);
    expect(guestErrors).toEqual([]);
  });

  it('coturn relays with a valid credential and refuses a wrong or expired one', async () => {
    const url = `turn:127.0.0.1:${turn.port}?transport=udp`;
    const now = Math.floor(Date.now() / 1000);
    const valid = await gatherRelay(guestPage, { urls: url, ...credentials(now + 3600, 'probe') });
    expect(valid.types).toContain('relay');

    const wrong = await gatherRelay(guestPage, {
      urls: url,
      ...credentials(now + 3600, 'probe', 'not-the-secret'),
    });
    expect(wrong.types).toEqual([]);
    expect(wrong.errors).toContain(401);

    const expired = await gatherRelay(guestPage, { urls: url, ...credentials(now - 60, 'probe') });
    expect(expired.types).toEqual([]);
    expect(expired.errors).toContain(401);
  });
});
