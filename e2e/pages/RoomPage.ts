import type { Locator, Page } from 'playwright-core';

/** Media counters read through the room's read-only debugging handle (window.__parley). */
export interface MediaCounters {
  peers: number;
  connected: number;
  /** Sum over peers of inbound video framesDecoded. */
  framesDecoded: number;
  /** Sum over peers of inbound audio totalAudioEnergy. */
  audioEnergy: number;
  /** The largest inbound video frame width seen (1280 for the fake screen, 640 for the camera). */
  maxFrameWidth: number;
}

/** The meeting room at /meeting/{id}: pre-join, header, grid, side panel and control bar. */
export class RoomPage {
  constructor(readonly page: Page) {}

  async open(meetingId: string, query: { name?: string; host?: boolean } = {}): Promise<void> {
    const q = new URLSearchParams();
    if (query.name) q.set('name', query.name);
    if (query.host) q.set('host', 'true');
    const qs = q.toString();
    await this.page.goto(`/meeting/${meetingId}${qs ? `?${qs}` : ''}`);
  }

  get preJoinName(): Locator {
    return this.page.getByLabel('Your name');
  }
  get joinButton(): Locator {
    return this.page.getByRole('button', { name: 'Join Meeting' });
  }
  get room(): Locator {
    return this.page.getByTestId('meeting-room');
  }
  get remoteTiles(): Locator {
    return this.page.getByTestId('remote-tile');
  }
  get selfTile(): Locator {
    return this.page.getByTestId('self-tile');
  }
  get participantCount(): Locator {
    return this.page.getByTestId('participant-count');
  }
  get controls(): Locator {
    return this.page.getByRole('navigation', { name: 'Meeting controls' });
  }
  control(name: string): Locator {
    return this.controls.getByRole('button', { name, exact: true });
  }
  get muteAll(): Locator {
    return this.controls.getByRole('button', { name: 'Mute All' });
  }
  get screenStage(): Locator {
    return this.page.getByTestId('screen-share-stage');
  }
  /** The host's Mute All / Unmute All toggle, whichever it says now. */
  get muteAllToggle(): Locator {
    return this.controls.getByRole('button', { name: /^(Mute|Unmute) All$/ });
  }
  /** The host's notice of guests knocking, shown outside the People panel. */
  get knockNotice(): Locator {
    return this.page.getByRole('region', { name: 'Waiting to join' });
  }
  /** The alert for a failing camera or microphone (pre-join and room). */
  mediaAlert(device: 'Camera' | 'Microphone'): Locator {
    return this.page.getByRole('alert', { name: `${device} problem` });
  }
  /** The pre-join dialog's own camera video. */
  get preJoinPreview(): Locator {
    return this.page.getByLabel('Camera preview');
  }

  /**
   * Records whether a dialog ever appears in this page (from the next navigation on), so a test
   * can tell "joined without a dialog" from "a dialog came and went".
   */
  async watchDialogs(): Promise<void> {
    await this.page.addInitScript(() => {
      const w = window as unknown as { __dialogsSeen: number };
      w.__dialogsSeen = 0;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n instanceof Element && (n.matches('[role="dialog"]') || n.querySelector('[role="dialog"]')))
              w.__dialogsSeen += 1;
      }).observe(document, { childList: true, subtree: true });
    });
  }
  async dialogsSeen(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __dialogsSeen?: number }).__dialogsSeen ?? -1);
  }

  /** Fills the pre-join dialog and joins; `micOn` turns the microphone on first. */
  async joinFromDialog(
    name: string,
    { micOn = true, waitForRoom = true }: { micOn?: boolean; waitForRoom?: boolean } = {},
  ): Promise<void> {
    await this.preJoinName.waitFor();
    await this.preJoinName.fill(name);
    const micButton = this.page.getByRole('button', { name: 'Turn on microphone' });
    if (micOn && (await micButton.isVisible())) await micButton.click();
    await this.joinButton.click();
    if (waitForRoom) await this.waitJoined();
  }

  async waitJoined(): Promise<void> {
    await this.room.waitFor({ timeout: 20_000 });
    await this.page.waitForFunction(() => window.__parley?.signalState() === 'joined');
  }

  async selfId(): Promise<string | null> {
    return this.page.evaluate(() => window.__parley?.selfId() ?? null);
  }

  async signalState(): Promise<string | null> {
    return this.page.evaluate(() => window.__parley?.signalState() ?? null);
  }

  async counters(): Promise<MediaCounters> {
    return this.page.evaluate(async () => {
      const peers = window.__parley?.peerConnections() ?? [];
      const out = { peers: peers.length, connected: 0, framesDecoded: 0, audioEnergy: 0, maxFrameWidth: 0 };
      for (const { pc } of peers) {
        if (pc.connectionState === 'connected') out.connected += 1;
        const stats = await pc.getStats();
        stats.forEach(
          (s: {
            type: string;
            kind?: string;
            framesDecoded?: number;
            totalAudioEnergy?: number;
            frameWidth?: number;
          }) => {
            if (s.type !== 'inbound-rtp') return;
            if (s.kind === 'video') {
              out.framesDecoded += s.framesDecoded ?? 0;
              out.maxFrameWidth = Math.max(out.maxFrameWidth, s.frameWidth ?? 0);
            }
            if (s.kind === 'audio') out.audioEnergy += s.totalAudioEnergy ?? 0;
          },
        );
      }
      return out;
    });
  }

  /** Per-peer inbound video frames, keyed by remote participant id. */
  async framesByPeer(): Promise<Record<string, number>> {
    return this.page.evaluate(async () => {
      const out: Record<string, number> = {};
      for (const { participantId, pc } of window.__parley?.peerConnections() ?? []) {
        let frames = 0;
        (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
        });
        out[participantId] = frames;
      }
      return out;
    });
  }

  /** Whether the audio track this page sends is enabled (false = muted at the source). */
  async sendingAudioEnabled(): Promise<boolean[]> {
    return this.page.evaluate(() =>
      (window.__parley?.peerConnections() ?? []).flatMap(({ pc }) =>
        pc
          .getSenders()
          .filter((s) => s.track?.kind === 'audio')
          .map((s) => s.track!.enabled),
      ),
    );
  }

  async openChat(): Promise<void> {
    if (!(await this.page.getByPlaceholder('Type a message...').isVisible()))
      await this.control('Chat').click();
    await this.page.getByPlaceholder('Type a message...').waitFor();
  }

  async sendChat(text: string): Promise<void> {
    await this.openChat();
    await this.page.getByPlaceholder('Type a message...').fill(text);
    await this.page.keyboard.press('Enter');
  }

  get chatMessages(): Locator {
    return this.page.getByTestId('chat-message');
  }
}

declare global {
  interface Window {
    __parley?: {
      peerConnections(): {
        participantId: string;
        pc: RTCPeerConnection;
        polite: boolean;
        iceRestarts: number;
      }[];
      signalState(): string;
      selfId(): string | null;
      participants(): { id: string; name: string; isConnected: boolean }[];
    };
  }
}
