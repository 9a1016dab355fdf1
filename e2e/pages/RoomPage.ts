import type { Locator, Page } from 'playwright-core';

/** What one page receives from one remote participant (see RoomPage.remoteMedia). */
export interface RemoteMediaSample {
  id: string;
  /** The name the room knows them by; null when the room no longer lists them. */
  name: string | null;
  /** Their peer connection's state; null when there is no connection to them. */
  connection: RTCPeerConnectionState | null;
  /** Inbound video framesDecoded on their connection. */
  framesDecoded: number;
  /** Inbound audio totalAudioEnergy on their connection. */
  audioEnergy: number;
  /** How many inbound audio streams their connection has. */
  inboundAudio: number;
  /** Their tile's `<video>`; null when no tile shows them. */
  tile: {
    /** Which `<video>` element this is (a remounted tile counts its frames from zero again). */
    element: number;
    /**
     * requestVideoFrameCallback's presentedFrames: frames the element has put on screen since it
     * got its stream; -1 until the first callback after this page's first remoteMedia() call.
     */
    presentedFrames: number;
    currentTime: number;
    paused: boolean;
    muted: boolean;
    hasStream: boolean;
  } | null;
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
  /**
   * The bar's control `name`, pressed: a button of the bar, or below 1024 px, where the less-used
   * controls are in More, that menu's item.
   */
  async useControl(name: string): Promise<void> {
    const button = this.control(name);
    if (await button.isVisible()) return button.click();
    await this.control('More').click();
    const menu = this.page.getByRole('menu');
    await menu
      .getByRole('menuitem', { name, exact: true })
      .or(menu.getByRole('menuitemcheckbox', { name, exact: true }))
      .click();
  }

  /** Leaves the meeting; a host is asked first and answers Leave meeting (the meeting goes on). */
  async leave(): Promise<void> {
    await this.control('Leave meeting').click();
    const asked = this.page.getByRole('dialog', { name: 'Leave the meeting?' });
    const left = this.page.getByRole('heading', { name: 'You left the meeting' });
    await asked.or(left).first().waitFor();
    if (await asked.isVisible()) await asked.getByRole('button', { name: 'Leave meeting' }).click();
    await left.waitFor();
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

  /**
   * Fills the pre-join dialog (a name, nothing else: issue 37 item 2) and joins; `micOn` turns the
   * microphone on first. The name replaces whatever was filled in (a signed-in user's name).
   */
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

  /**
   * What this page receives from each remote participant right now: their peer connection's
   * inbound statistics and their tile's `<video>`. The first call starts counting the frames each
   * tile's `<video>` presents (`requestVideoFrameCallback`), so compare two samples.
   * Participants are keyed by id; see support/media-check.ts for the checks built on it.
   */
  async remoteMedia(): Promise<RemoteMediaSample[]> {
    return this.page.evaluate(async () => {
      type Counter = { presented: number; serial: number };
      const w = window as unknown as {
        __tileFrames?: WeakMap<HTMLVideoElement, Counter>;
        __tileSerial?: number;
      };
      const counters = (w.__tileFrames ??= new WeakMap());
      const handle = window.__parley;
      const byId = new Map<string, RemoteMediaSample>();
      const entry = (id: string): RemoteMediaSample => {
        let e = byId.get(id);
        if (!e) {
          e = {
            id,
            name: null,
            connection: null,
            framesDecoded: 0,
            audioEnergy: 0,
            inboundAudio: 0,
            tile: null,
          };
          byId.set(id, e);
        }
        return e;
      };
      for (const p of handle?.participants() ?? []) entry(p.id).name = p.name;
      for (const { participantId, pc } of handle?.peerConnections() ?? []) {
        const e = entry(participantId);
        e.connection = pc.connectionState;
        (await pc.getStats()).forEach(
          (s: { type: string; kind?: string; framesDecoded?: number; totalAudioEnergy?: number }) => {
            if (s.type !== 'inbound-rtp') return;
            if (s.kind === 'video') e.framesDecoded += s.framesDecoded ?? 0;
            if (s.kind === 'audio') {
              e.audioEnergy += s.totalAudioEnergy ?? 0;
              e.inboundAudio += 1;
            }
          },
        );
      }
      // Through the SFU: one subscriber connection; its m-lines (mid) say whose media they carry.
      const sfu = handle?.sfu?.();
      if (sfu?.subscriber) {
        const whose = new Map(sfu.streams.map((x) => [x.mid, x.participantId]));
        const state = sfu.subscriber.connectionState;
        (await sfu.subscriber.getStats()).forEach(
          (s: {
            type: string;
            kind?: string;
            mid?: string;
            framesDecoded?: number;
            totalAudioEnergy?: number;
          }) => {
            const id = s.type === 'inbound-rtp' && s.mid !== undefined ? whose.get(s.mid) : undefined;
            if (!id) return;
            const e = entry(id);
            e.connection ??= state;
            if (s.kind === 'video') e.framesDecoded += s.framesDecoded ?? 0;
            if (s.kind === 'audio') {
              e.audioEnergy += s.totalAudioEnergy ?? 0;
              e.inboundAudio += 1;
            }
          },
        );
      }
      for (const tile of document.querySelectorAll<HTMLElement>('[data-testid="remote-tile"]')) {
        const id = tile.dataset.participantId;
        const video = tile.querySelector('video');
        if (!id || !video) continue;
        let c = counters.get(video);
        if (!c) {
          const counter: Counter = { presented: -1, serial: (w.__tileSerial = (w.__tileSerial ?? 0) + 1) };
          c = counter;
          counters.set(video, counter);
          const tick = (_now: number, meta: VideoFrameCallbackMetadata) => {
            counter.presented = meta.presentedFrames;
            video.requestVideoFrameCallback(tick);
          };
          video.requestVideoFrameCallback(tick);
        }
        entry(id).tile = {
          element: c.serial,
          presentedFrames: c.presented,
          currentTime: video.currentTime,
          paused: video.paused,
          muted: video.muted,
          hasStream: video.srcObject instanceof MediaStream,
        };
      }
      return [...byId.values()];
    });
  }

  /** The widest inbound video frame (1280 for the fake screen, 640 for the camera). */
  async maxInboundFrameWidth(): Promise<number> {
    return this.page.evaluate(async () => {
      let max = 0;
      for (const { pc } of window.__parley?.peerConnections() ?? [])
        (await pc.getStats()).forEach((s: { type: string; kind?: string; frameWidth?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') max = Math.max(max, s.frameWidth ?? 0);
        });
      return max;
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

  /** Opens the People tab of the side panel (the control bar's People button). */
  async openPeople(): Promise<void> {
    if (!(await this.peoplePanel.isVisible())) await this.control('People').click();
    await this.peoplePanel.waitFor();
  }

  get peoplePanel(): Locator {
    return this.page.getByRole('region', { name: 'Participants' });
  }

  /** The host's list of people it removed (deny list), each with an Allow back button. */
  get removedSection(): Locator {
    return this.page.getByRole('region', { name: 'Removed' });
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
      /** The SFU connections (meetings on the SFU), or null on the mesh; absent in older builds. */
      sfu?(): {
        publisher: RTCPeerConnection | null;
        subscriber: RTCPeerConnection | null;
        streams: { participantId: string; mid: string; kind: string }[];
      } | null;
    };
  }
}
