import type { TranscriptionConsent, TranscriptionState } from '@parley/protocol/ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Store } from '@/lib/store';
import type { LocalMedia, LocalMediaSnapshot } from '../media/local-media';
import { SignalClient } from '../signal-client';
import { FakeSocket, joinedMessage, participant } from '../testing/fakes';
import { addInterim, addLine, Captions, INTERIM_STALE_MS, type TranscriptEntry } from './captions';
import type { MicStreamer } from './mic-streamer';

/** Captions on a real SignalClient (the server played through a fake socket) and a fake microphone. */
function setup() {
  let socket!: FakeSocket;
  const signal = new SignalClient({
    url: 'ws://x/ws',
    joinToken: 'token-0123456789abcdef',
    createSocket: (url) => (socket = new FakeSocket(url)),
  });
  const mediaStore = new Store({ isMuted: false } as LocalMediaSnapshot);
  const track = { readyState: 'live' } as MediaStreamTrack;
  let audioTrack: MediaStreamTrack | null = track;
  const media = {
    getSnapshot: mediaStore.getSnapshot,
    subscribe: mediaStore.subscribe,
    onTracksChanged: () => () => undefined,
    get audioTrack() {
      return audioTrack;
    },
  } as unknown as LocalMedia;
  const streamed: MediaStreamTrack[] = [];
  let active: MediaStreamTrack | null = null;
  let send: (f: Int16Array) => void = () => undefined;
  const fakeMic = {
    get activeTrack() {
      return active;
    },
    start: async (t: MediaStreamTrack) => {
      active = t;
      streamed.push(t);
    },
    stop: () => {
      active = null;
    },
  } as unknown as MicStreamer;
  const captions = new Captions({
    signal,
    media,
    storage: localStorage,
    createStreamer: (s) => {
      send = s;
      return fakeMic;
    },
  });
  signal.connect();
  socket.open();
  const join = (
    transcription: TranscriptionState = { active: false, startedBy: null, startedAt: null },
    recentTranscripts: TranscriptEntry[] = [],
    consent: TranscriptionConsent = null,
  ) =>
    socket.receive(
      joinedMessage(
        { ...participant('me', 'Ann'), ...(consent ? { transcriptionConsent: consent } : {}) },
        { transcription, recentTranscripts },
      ),
    );
  /** The server records this participant's answer (what it sends to everyone). */
  const answered = (consent: TranscriptionConsent) =>
    socket.receive({
      type: 'participant_updated',
      participant: { ...participant('me', 'Ann'), ...(consent ? { transcriptionConsent: consent } : {}) },
    });
  /** Answers the client's last set_transcription_consent as the server does: the update, then ack. */
  const serverAccepts = () => {
    const sent = socket.sentOf('set_transcription_consent').at(-1)!;
    answered(sent.consent as TranscriptionConsent);
    socket.receive({ type: 'ack', requestId: sent.requestId as string });
  };
  return {
    signal,
    socket: () => socket,
    captions,
    mediaStore,
    streamed,
    isStreaming: () => active !== null,
    frame: (f: Int16Array) => send(f),
    noMic: () => (audioTrack = null),
    join,
    answered,
    serverAccepts,
  };
}

const on = { active: true, startedBy: { id: 'h', name: 'Hana' }, startedAt: '2026-11-23T10:00:00.000Z' };
const line = (id: string, at: string): TranscriptEntry => ({
  id,
  speakerName: 'Ann',
  originalText: id,
  translatedText: null,
  timestamp: at,
  language: 'en',
});

describe('Captions', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('streams the microphone exactly while transcription is on, we allowed it and are unmuted', () => {
    const c = setup();
    c.join();
    expect(c.isStreaming()).toBe(false);
    c.socket().receive({ type: 'transcription_state', transcription: on });
    // On, but not answered yet: nothing is sent.
    expect(c.isStreaming()).toBe(false);
    c.answered('allowed');
    expect(c.isStreaming()).toBe(true);
    expect(c.captions.getSnapshot().streaming).toBe(true);
    c.frame(new Int16Array(1600));
    expect(c.socket().binary).toHaveLength(1);
    expect(c.socket().binary[0]!.byteLength).toBe(3200);
    c.mediaStore.patch({ isMuted: true });
    expect(c.isStreaming()).toBe(false);
    c.mediaStore.patch({ isMuted: false });
    expect(c.isStreaming()).toBe(true);
    c.socket().receive({
      type: 'transcription_state',
      transcription: { active: false, startedBy: null, startedAt: null },
    });
    expect(c.isStreaming()).toBe(false);
  });

  it('a late joiner sends nothing until it continues; a reload keeps the answer; a drop stops it', () => {
    const c = setup();
    c.join(on);
    expect(c.isStreaming()).toBe(false);
    expect(c.captions.getSnapshot().consent).toBeNull();
    const reloaded = setup();
    reloaded.join(on, [], 'allowed');
    expect(reloaded.isStreaming()).toBe(true);
    const declined = setup();
    declined.join(on, [], 'declined');
    expect(declined.isStreaming()).toBe(false);
    c.join(on, [], 'allowed');
    expect(c.isStreaming()).toBe(true);
    c.socket().drop(1006);
    expect(c.isStreaming()).toBe(false);
  });

  it('shows the lines the server sends on entering (a reload, a late joiner), then the live ones', () => {
    const c = setup();
    c.join(on, [line('a', '2026-11-23T10:00:01.000Z'), line('b', '2026-11-23T10:00:02.000Z')]);
    c.socket().receive({ type: 'new_transcript', transcript: line('c', '2026-11-23T10:00:03.000Z') });
    expect(c.captions.getSnapshot().lines.map((l) => l.id)).toEqual(['a', 'b', 'c']);
    // A resume sends them again: nothing is doubled.
    c.join(on, [line('b', '2026-11-23T10:00:02.000Z'), line('c', '2026-11-23T10:00:03.000Z')]);
    expect(c.captions.getSnapshot().lines.map((l) => l.id)).toEqual(['a', 'b', 'c']);
  });

  it('says when the server cannot caption this speaker (every decoder busy), until it can', () => {
    const c = setup();
    c.join(on, [], 'allowed');
    c.socket().receive({ type: 'caption_status', captioned: false, reason: 'busy' });
    expect(c.captions.getSnapshot().notCaptioned).toBe('busy');
    c.socket().receive({ type: 'caption_status', captioned: true, reason: null });
    expect(c.captions.getSnapshot().notCaptioned).toBeNull();
    c.socket().receive({ type: 'caption_status', captioned: false, reason: 'busy' });
    // Muting stops the stream: there is nothing to be captioned, so nothing to warn about.
    c.mediaStore.patch({ isMuted: true });
    expect(c.captions.getSnapshot().notCaptioned).toBeNull();
  });

  it('keeps the last 20 lines in time order', () => {
    const c = setup();
    c.join(on);
    for (let i = 0; i < 25; i++) {
      const at = new Date(Date.UTC(2026, 10, 23, 10, 0, i)).toISOString();
      c.socket().receive({ type: 'new_transcript', transcript: line(`l${i}`, at) });
    }
    const ids = c.captions.getSnapshot().lines.map((l) => l.id);
    expect(ids).toHaveLength(20);
    expect(ids[0]).toBe('l5');
    expect(ids.at(-1)).toBe('l24');
  });

  it("tells the server this listener's language on every join, and remembers it across reloads", () => {
    const c = setup();
    c.join();
    c.captions.setLanguage('fr');
    c.captions.setTranslation(true);
    expect(c.socket().sentOf('set_caption_language').at(-1)).toMatchObject({ language: 'fr' });
    const again = setup(); // a reload: the choice comes back from local storage
    expect(again.captions.getSnapshot()).toMatchObject({ translationOn: true, language: 'fr' });
    again.join();
    expect(again.socket().sentOf('set_caption_language')).toEqual([
      expect.objectContaining({ language: 'fr' }),
    ]);
    again.captions.setTranslation(false);
    expect(again.socket().sentOf('set_caption_language').at(-1)).toMatchObject({ language: null });
  });

  it('refuses to start without a microphone (spec §5) and reports a Pro refusal from the server', async () => {
    const c = setup();
    c.join();
    c.noMic();
    expect(await c.captions.setTranscription(true)).toBe('no_microphone');
    expect(c.socket().sentOf('set_transcription')).toEqual([]);
    const c2 = setup();
    c2.join();
    const pending = c2.captions.setTranscription(true);
    const [sent] = c2.socket().sentOf('set_transcription');
    c2.socket().receive({
      type: 'error',
      code: 'subscription_required',
      message: 'An active Pro subscription is required',
      requestId: sent!.requestId as string,
    });
    expect(await pending).toBe('subscription_required');
  });

  it('Continue streams once the server recorded it; Decline stops at once, before any answer', async () => {
    const c = setup();
    c.join(on);
    const allowing = c.captions.setConsent('allowed');
    expect(c.isStreaming()).toBe(false); // not before the server has it
    c.serverAccepts();
    expect(await allowing).toBe(true);
    expect(c.isStreaming()).toBe(true);
    c.frame(new Int16Array(160));
    const declining = c.captions.setConsent('declined');
    expect(c.isStreaming()).toBe(false);
    expect(c.captions.getSnapshot().consent).toBe('declined');
    c.frame(new Int16Array(160)); // a frame the worklet had in flight
    expect(c.socket().binary).toHaveLength(1);
    c.serverAccepts();
    expect(await declining).toBe(true);
    // Unmuting, a new track, anything: still nothing while declined, captions still arrive.
    c.mediaStore.patch({ isMuted: false });
    expect(c.isStreaming()).toBe(false);
    c.socket().receive({ type: 'new_transcript', transcript: line('x', '2026-11-23T10:00:05.000Z') });
    expect(c.captions.getSnapshot().lines.map((l) => l.id)).toEqual(['x']);
    // Changing its mind.
    const again = c.captions.setConsent('allowed');
    c.serverAccepts();
    await again;
    expect(c.isStreaming()).toBe(true);
  });

  it('transcription turned off forgets Continue (the server says so): the next start asks again', () => {
    const c = setup();
    c.join(on, [], 'allowed');
    c.socket().receive({
      type: 'transcription_state',
      transcription: { active: false, startedBy: null, startedAt: null },
    });
    c.answered(null);
    c.socket().receive({ type: 'transcription_state', transcription: on });
    expect(c.captions.getSnapshot().consent).toBeNull();
    expect(c.isStreaming()).toBe(false);
  });

  it('interim words show while someone speaks, each replacing the last, until the final line replaces them', () => {
    const c = setup();
    c.join(on);
    const partial = (segmentId: string, text: string, timestamp = '2026-11-23T10:00:05.000Z') =>
      c.socket().receive({
        type: 'transcript_partial',
        partial: { segmentId, participantId: 'b', speakerName: 'Bob', text, language: 'en', timestamp },
      });
    partial('s.1', 'we ship');
    partial('s.1', 'we ship on friday');
    expect(c.captions.getSnapshot().interim.map((i) => i.text)).toEqual(['we ship on friday']);
    // Bob's next segment starts before the first one's line came: both show, in time order.
    partial('s.2', 'and then', '2026-11-23T10:00:09.000Z');
    expect(c.captions.getSnapshot().interim.map((i) => i.segmentId)).toEqual(['s.1', 's.2']);
    c.socket().receive({
      type: 'new_transcript',
      transcript: { ...line('We ship on Friday.', '2026-11-23T10:00:05.000Z'), segmentId: 's.1' },
    });
    const snap = c.captions.getSnapshot();
    expect(snap.lines.map((l) => l.originalText)).toEqual(['We ship on Friday.']);
    expect(snap.interim.map((i) => i.text)).toEqual(['and then']);
    // An empty partial withdraws a segment no line replaces (nothing was kept).
    partial('s.2', '');
    expect(c.captions.getSnapshot().interim).toEqual([]);
  });

  it('interim words are dropped when transcription goes off, their speaker leaves, or they go stale', () => {
    const c = setup();
    c.join(on);
    const partial = (segmentId: string, participantId: string) =>
      c.socket().receive({
        type: 'transcript_partial',
        partial: {
          segmentId,
          participantId,
          speakerName: participantId,
          text: 'words',
          language: 'en',
          timestamp: '2026-11-23T10:00:05.000Z',
        },
      });
    partial('a.1', 'a');
    partial('b.1', 'b');
    c.socket().receive({ type: 'participant_left', participantId: 'a', reason: 'left' });
    expect(c.captions.getSnapshot().interim.map((i) => i.participantId)).toEqual(['b']);
    c.socket().receive({
      type: 'transcription_state',
      transcription: { active: false, startedBy: null, startedAt: null },
    });
    expect(c.captions.getSnapshot().interim).toEqual([]);
    // Off: late partials are not shown.
    partial('b.2', 'b');
    expect(c.captions.getSnapshot().interim).toEqual([]);
    // Stale ones go when the next comes.
    const old = addInterim(
      [],
      { segmentId: 'x.1', participantId: 'x', speakerName: 'X', text: 'old', language: 'en', timestamp: 't' },
      0,
    );
    expect(
      addInterim(old, { ...old[0]!, segmentId: 'y.1', text: 'new' }, INTERIM_STALE_MS).map((i) => i.text),
    ).toEqual(['new']);
  });

  it('addLine replaces a line with the same id', () => {
    const a = line('a', '2026-11-23T10:00:00.000Z');
    expect(addLine([a], { ...a, originalText: 'again' })).toEqual([{ ...a, originalText: 'again' }]);
  });
});
