/**
 * A probe installed in a participant's page before any of the app's code runs (Playwright
 * `addInitScript`). It timestamps, on the page's clock (ms since the epoch, sub-ms precision), the
 * steps of a join without changing what the app does:
 * - `gum:start` / `gum:end` around getUserMedia, `pc:N:create` for the N-th RTCPeerConnection,
 *   `pc:N:sld-offer|sld-answer|srd-offer|srd-answer` when descriptions are set, `pc:N:candidate`
 *   (first local candidate), `pc:N:connected`;
 * - `ws:create`, `ws:open`, `ws>TYPE` for the first sent message of each type, `ws<TYPE` for the
 *   first received one;
 * - `ui:name-typed` (the probe typed the name into an empty name field), `ui:email-typed` (and an
 *   e-mail into the free tier's empty billing field, as a guest must), `ui:join-button` (the
 *   pre-join dialog's Join Meeting button is on screen), `ui:click` (the probe clicked it at once,
 *   as the quickest person would), `ui:room` (the room view is shown);
 * - `frame:<participantId>` when that remote tile's video first has a decoded frame;
 * - `long:<duration>ms#N` at the start of the N-th main-thread task over 50 ms (Long Tasks API):
 *   while one runs, no socket message, peer-connection callback or frame is handled.
 * The page's navigation and resource timings are read afterwards (`readProbe`).
 */
export interface ProbeMarks {
  [mark: string]: number;
}

export interface ProbeReport {
  marks: ProbeMarks;
  timeOrigin: number;
  navigation: { responseEnd: number; domContentLoaded: number; loadEventEnd: number } | null;
  resources: { name: string; startTime: number; responseEnd: number; initiatorType: string }[];
}

declare global {
  interface Window {
    __bench?: { marks: ProbeMarks; autoClick: boolean };
  }
}

/**
 * The probe as an init script. tsx compiles with esbuild's keepNames, which wraps named functions
 * in `__name(...)`: the page gets a no-op `__name` first.
 */
export function probeScript(typeName: string | null = null): string {
  return `var __name = (f) => f;\n(${installProbe.toString()})(${JSON.stringify(typeName)});`;
}

/**
 * Runs in the page; must not close over anything. With `typeName`, an empty name field in the
 * pre-join dialog is filled with it first (a link without `?name=`).
 */
function installProbe(typeName: string | null): void {
  const now = () => performance.timeOrigin + performance.now();
  const marks: Record<string, number> = {};
  const bench = { marks, autoClick: true };
  window.__bench = bench;
  const mark = (k: string) => {
    if (k in marks) return;
    marks[k] = now();
    // Also on the page's timeline, so a trace (BENCH_TRACE) shows the steps among the tasks.
    performance.mark(`bench:${k}`);
  };

  let longTasks = 0;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        marks[`long:${Math.round(e.duration)}ms#${++longTasks}`] = performance.timeOrigin + e.startTime;
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No Long Tasks API: no long-task marks.
  }

  const md = navigator.mediaDevices;
  if (md?.getUserMedia) {
    const gum = md.getUserMedia.bind(md);
    md.getUserMedia = (c?: MediaStreamConstraints) => {
      mark('gum:start');
      return gum(c).then((s) => {
        mark('gum:end');
        return s;
      });
    };
  }

  const NativeWS = window.WebSocket;
  class ProbeWS extends NativeWS {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      mark('ws:create');
      this.addEventListener('open', () => mark('ws:open'));
      this.addEventListener('message', (e: MessageEvent) => {
        try {
          const m = JSON.parse(String(e.data)) as { type?: string; fromParticipant?: string };
          if (m.type) mark(`ws<${m.type}${m.fromParticipant ? `:${m.fromParticipant}` : ''}`);
        } catch {
          // not JSON
        }
      });
    }
    override send(data: Parameters<WebSocket['send']>[0]): void {
      try {
        const m = JSON.parse(String(data)) as { type?: string; targetParticipant?: string };
        if (m.type) mark(`ws>${m.type}${m.targetParticipant ? `:${m.targetParticipant}` : ''}`);
      } catch {
        // not JSON
      }
      super.send(data);
    }
  }
  window.WebSocket = ProbeWS;

  const NativePC = window.RTCPeerConnection;
  if (NativePC) {
    let count = 0;
    const ids = new WeakMap<RTCPeerConnection, number>();
    class ProbePC extends NativePC {
      constructor(config?: RTCConfiguration) {
        super(config);
        const id = count++;
        ids.set(this, id);
        mark(`pc:${id}:create`);
        this.addEventListener('icecandidate', (e) => {
          if (e.candidate?.candidate) mark(`pc:${id}:candidate`);
        });
        this.addEventListener('connectionstatechange', () => mark(`pc:${id}:${this.connectionState}`));
      }
      override setLocalDescription(d?: RTCLocalSessionDescriptionInit): Promise<void> {
        const id = ids.get(this);
        return super.setLocalDescription(d).then(() => mark(`pc:${id}:sld-${this.localDescription?.type}`));
      }
      override setRemoteDescription(d: RTCSessionDescriptionInit): Promise<void> {
        const id = ids.get(this);
        mark(`pc:${id}:srd-${d.type}`);
        return super.setRemoteDescription(d);
      }
    }
    window.RTCPeerConnection = ProbePC;
  }

  // As typing does: React reads the value from the input event.
  const type = (field: HTMLInputElement, value: string) => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const poll = () => {
    const nameField = document.querySelector<HTMLInputElement>('#prejoin-name');
    if (typeName && nameField && !nameField.value) {
      type(nameField, typeName);
      mark('ui:name-typed');
      return;
    }
    // A guest without Pro gives an e-mail for the free tier's billing (the form asks for it).
    const emailField = document.querySelector<HTMLInputElement>('#prejoin-email');
    if (typeName && emailField && !emailField.value) {
      type(emailField, `${typeName.toLowerCase().replace(/[^a-z0-9]+/g, '')}@example.com`);
      mark('ui:email-typed');
      return;
    }
    if (!('ui:join-button' in marks)) {
      const button = [...document.querySelectorAll('button')].find(
        (b) => b.textContent?.trim() === 'Join Meeting' && !b.disabled,
      );
      if (button) {
        mark('ui:join-button');
        if (bench.autoClick) {
          mark('ui:click');
          button.click();
        }
      }
    }
    if (!('ui:room' in marks) && document.querySelector('[data-testid="meeting-room"]')) mark('ui:room');
    for (const tile of document.querySelectorAll<HTMLElement>('[data-testid="remote-tile"]')) {
      const v = tile.querySelector('video');
      if (v && v.readyState >= 2 && v.videoWidth > 0) mark(`frame:${tile.dataset.participantId ?? '?'}`);
    }
  };
  setInterval(poll, 2);
}

/** The probe's marks and the page's own timings, all as ms since the epoch. */
export function readProbe(): ProbeReport {
  const origin = performance.timeOrigin;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return {
    marks: { ...(window.__bench?.marks ?? {}) },
    timeOrigin: origin,
    navigation: nav
      ? {
          responseEnd: origin + nav.responseEnd,
          domContentLoaded: origin + nav.domContentLoadedEventEnd,
          loadEventEnd: origin + nav.loadEventEnd,
        }
      : null,
    resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      name: r.name,
      initiatorType: r.initiatorType,
      startTime: origin + r.startTime,
      responseEnd: origin + r.responseEnd,
    })),
  };
}
