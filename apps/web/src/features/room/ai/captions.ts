import { TRANSLATION_LANGUAGES } from '@parley/protocol/constants';
import type { TranslationLanguage } from '@parley/protocol/ai';
import type {
  RoomParticipant,
  ServerMessageOf,
  TranscriptionConsent,
  TranscriptionState,
} from '@parley/protocol/ws';
import { Store } from '@/lib/store';
import type { LocalMedia } from '../media/local-media';
import { newRequestId, SignalRequestError, type SignalClient } from '../signal-client';
import { MicStreamer } from './mic-streamer';

export type TranscriptEntry = ServerMessageOf<'new_transcript'>['transcript'];
/** Words being spoken now (issue 37): shown until the final line of its segment replaces them. */
export type InterimEntry = ServerMessageOf<'transcript_partial'>['partial'] & {
  /** When this listener last heard of it (ms, its own clock). */
  receivedAt: number;
};

/**
 * Interim words not updated for this long are dropped: their final line should have come within
 * about 2 s, so they are stale (a lost message, a speaker whose socket went away).
 */
export const INTERIM_STALE_MS = 15_000;

/** Spec §9: the room keeps the last 20 transcript lines. */
export const TRANSCRIPTS_KEPT = 20;
const PREFS_KEY = 'translation-preferences';

export interface CaptionsSnapshot {
  /** The meeting's transcription (room state, from the server). */
  transcription: TranscriptionState;
  /** The last 20 lines, oldest first. */
  lines: TranscriptEntry[];
  /** What is being said now, not final yet, oldest first (at most one segment per speaker mostly). */
  interim: InterimEntry[];
  /** Live Translation is on for this listener, into `language`. */
  translationOn: boolean;
  language: TranslationLanguage;
  /** This browser is streaming its microphone to the transcription now. */
  streaming: boolean;
  /** A start/stop in flight (the button shows it). */
  busy: boolean;
  /**
   * Why the server is not captioning this participant's speech now, though it streams: every
   * speech decoder is busy, or the engine failed to start. Null while captioned (or not streaming).
   */
  notCaptioned: 'busy' | 'failed' | null;
  /**
   * This participant's answer to the transcription notice, as the server keeps it (a decline
   * shows at once, before the server's answer). Null: not answered, so nothing is streamed.
   */
  consent: TranscriptionConsent;
  /** An answer in flight. */
  answering: boolean;
}

export interface TranslationPrefs {
  enabled: boolean;
  language: TranslationLanguage;
}

export function loadTranslationPrefs(
  storage: Storage | undefined = globalThis.localStorage,
): TranslationPrefs {
  const fallback: TranslationPrefs = { enabled: false, language: 'es' };
  try {
    const raw = storage?.getItem(PREFS_KEY);
    if (!raw) return fallback;
    const v = JSON.parse(raw) as Partial<TranslationPrefs>;
    const language = TRANSLATION_LANGUAGES.find((l) => l === v.language) ?? fallback.language;
    return { enabled: v.enabled === true, language };
  } catch {
    return fallback;
  }
}

function saveTranslationPrefs(p: TranslationPrefs, storage: Storage | undefined = globalThis.localStorage) {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(p));
  } catch {
    // storage disabled: the choice lasts for this page only
  }
}

/**
 * Interim words of a segment: replaces what was shown for it (an empty text withdraws it), drops
 * stale ones, keeps them in time order.
 */
export function addInterim(
  interim: InterimEntry[],
  partial: ServerMessageOf<'transcript_partial'>['partial'],
  now = Date.now(),
): InterimEntry[] {
  const rest = interim.filter(
    (i) => i.segmentId !== partial.segmentId && now - i.receivedAt < INTERIM_STALE_MS,
  );
  if (!partial.text) return rest;
  return [...rest, { ...partial, receivedAt: now }].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/** Adds a line, keeping the last TRANSCRIPTS_KEPT in time order (ids are unique). */
export function addLine(lines: TranscriptEntry[], line: TranscriptEntry): TranscriptEntry[] {
  const next = [...lines.filter((l) => l.id !== line.id), line].sort((a, b) =>
    a.timestamp.localeCompare(b.timestamp),
  );
  return next.slice(-TRANSCRIPTS_KEPT);
}

export type TranscriptionRefusal = 'subscription_required' | 'no_microphone' | 'failed';

/**
 * Live captions in the room: the meeting's transcription state (room state), the last 20 lines in
 * this listener's language, the listener's own Live Translation choice (kept in local storage and
 * told to the server on every join), this participant's consent, and the microphone stream this
 * browser sends while transcription is on, it is not muted and it allowed it (issue 34: nothing
 * is sent before the participant has seen the notice and chosen Continue).
 */
export class Captions {
  private readonly store: Store<CaptionsSnapshot>;
  readonly getSnapshot: Store<CaptionsSnapshot>['getSnapshot'];
  readonly subscribe: Store<CaptionsSnapshot>['subscribe'];
  private readonly cleanups: (() => void)[] = [];
  private readonly mic: MicStreamer;
  private admitted = false;
  private selfId: string | null = null;
  /** Whether frames may go out now (follow() decides): the gate for frames still in flight. */
  private sending = false;

  constructor(
    private readonly opts: {
      signal: SignalClient;
      media: LocalMedia;
      log?: (msg: string, extra?: unknown) => void;
      storage?: Storage;
      createStreamer?: (send: (frame: Int16Array) => void) => MicStreamer;
    },
  ) {
    const prefs = loadTranslationPrefs(opts.storage);
    this.store = new Store<CaptionsSnapshot>({
      transcription: { active: false, startedBy: null, startedAt: null },
      lines: [],
      interim: [],
      translationOn: prefs.enabled,
      language: prefs.language,
      streaming: false,
      busy: false,
      notCaptioned: null,
      consent: null,
      answering: false,
    });
    this.getSnapshot = this.store.getSnapshot;
    this.subscribe = this.store.subscribe;
    // A frame the worklet had queued when streaming stopped (a decline, a mute) is not sent.
    const send = (frame: Int16Array) => {
      if (this.sending) void opts.signal.sendBinary(frame);
    };
    this.mic = opts.createStreamer?.(send) ?? new MicStreamer(send, opts.log);
    const s = opts.signal;
    this.cleanups.push(
      s.on('joined', (m) => {
        this.selfId = m.self.id;
        this.restore(m.recentTranscripts);
        this.store.patch({ consent: m.self.transcriptionConsent ?? null });
        this.onJoined(m.transcription);
      }),
      s.on('participant_updated', (m) => this.onParticipant(m.participant)),
      s.on('caption_status', (m) => this.store.patch({ notCaptioned: m.captioned ? null : m.reason })),
      s.on('transcription_state', (m) => this.onState(m.transcription)),
      s.on('new_transcript', (m) => {
        const { lines, interim } = this.store.getSnapshot();
        const segment = m.transcript.segmentId;
        this.store.patch({
          lines: addLine(lines, m.transcript),
          // The final line replaces the interim words of its segment.
          ...(segment ? { interim: interim.filter((i) => i.segmentId !== segment) } : {}),
        });
      }),
      s.on('transcript_partial', (m) => {
        // Words of someone who is not captioned any more (transcription off) are not shown.
        if (!this.store.getSnapshot().transcription.active) return;
        this.store.patch({ interim: addInterim(this.store.getSnapshot().interim, m.partial) });
      }),
      s.on('participant_left', (m) => {
        const { interim } = this.store.getSnapshot();
        if (interim.some((i) => i.participantId === m.participantId)) {
          this.store.patch({ interim: interim.filter((i) => i.participantId !== m.participantId) });
        }
      }),
      opts.media.subscribe(() => this.follow()),
      opts.media.onTracksChanged(() => this.follow()),
      s.subscribe(() => {
        if (s.state !== 'joined') this.admitted = false;
        this.follow();
      }),
    );
  }

  private onJoined(t: TranscriptionState): void {
    this.admitted = true;
    this.store.patch({ transcription: t, notCaptioned: null, interim: [] });
    // The server forgets a listener's language with its participant: say it on every join.
    const { translationOn, language } = this.store.getSnapshot();
    if (translationOn) this.tellLanguage(language);
    this.follow();
  }

  /** The server's record of this participant: its answer (the server resets it, e.g. on stop). */
  private onParticipant(p: RoomParticipant): void {
    if (p.id !== this.selfId) return;
    this.store.patch({ consent: p.transcriptionConsent ?? null });
    this.follow();
  }

  private onState(t: TranscriptionState): void {
    this.store.patch({ transcription: t, ...(t.active ? {} : { notCaptioned: null, interim: [] }) });
    this.follow();
  }

  /** Streams the microphone exactly while transcription is on, we are in, unmuted and allowed it. */
  private follow(): void {
    const { transcription, consent } = this.store.getSnapshot();
    const media = this.opts.media.getSnapshot();
    const track = this.opts.media.audioTrack;
    const want =
      transcription.active &&
      consent === 'allowed' &&
      this.admitted &&
      !media.isMuted &&
      !!track &&
      track.readyState === 'live';
    this.sending = want;
    if (want && track) {
      if (this.mic.activeTrack !== track) {
        this.mic.start(track).catch(() => this.store.patch({ streaming: false }));
      }
      if (!this.store.getSnapshot().streaming) this.store.patch({ streaming: true });
    } else if (this.mic.activeTrack || this.store.getSnapshot().streaming) {
      this.mic.stop();
      this.store.patch({ streaming: false, notCaptioned: null });
    }
  }

  private tellLanguage(language: TranslationLanguage | null): void {
    this.opts.signal
      .request({ type: 'set_caption_language', requestId: newRequestId(), language })
      .catch((err: unknown) => this.opts.log?.('could not set the caption language', err));
  }

  /**
   * Turns the meeting's transcription on or off. Answers why it was refused, if it was: Pro is
   * needed to start (the room opens the upgrade dialog), and a microphone (spec §5).
   */
  async setTranscription(on: boolean): Promise<TranscriptionRefusal | null> {
    if (on && !this.opts.media.audioTrack) {
      this.opts.log?.('transcription needs a microphone track');
      return 'no_microphone';
    }
    this.store.patch({ busy: true });
    try {
      await this.opts.signal.request({ type: 'set_transcription', requestId: newRequestId(), on });
      return null;
    } catch (err) {
      if (err instanceof SignalRequestError && err.code === 'subscription_required')
        return 'subscription_required';
      this.opts.log?.('could not change the transcription', err);
      return 'failed';
    } finally {
      this.store.patch({ busy: false });
    }
  }

  /**
   * This participant's answer to the transcription notice. A decline stops the microphone stream
   * at once (before the server's answer: not one more frame goes out); Continue streams once the
   * server has recorded it. Answers false when the server refused.
   */
  async setConsent(consent: 'allowed' | 'declined'): Promise<boolean> {
    const before = this.store.getSnapshot().consent;
    this.store.patch({ answering: true, ...(consent === 'declined' ? { consent } : {}) });
    this.follow();
    try {
      await this.opts.signal.request({
        type: 'set_transcription_consent',
        requestId: newRequestId(),
        consent,
      });
      // The server keeps a Continue only while transcription is on (participant_updated says so).
      const active = this.store.getSnapshot().transcription.active;
      this.store.patch({ consent: consent === 'allowed' && !active ? null : consent });
      return true;
    } catch (err) {
      this.opts.log?.('could not answer the transcription notice', err);
      // A refused decline still sends nothing until the server says otherwise.
      if (consent === 'allowed') this.store.patch({ consent: before });
      return false;
    } finally {
      this.store.patch({ answering: false });
      this.follow();
    }
  }

  /** Live Translation on or off for this listener (into the chosen language). */
  setTranslation(on: boolean): void {
    const { language } = this.store.getSnapshot();
    this.store.patch({ translationOn: on });
    saveTranslationPrefs({ enabled: on, language }, this.opts.storage);
    this.tellLanguage(on ? language : null);
  }

  setLanguage(language: TranslationLanguage): void {
    const { translationOn } = this.store.getSnapshot();
    this.store.patch({ language });
    saveTranslationPrefs({ enabled: translationOn, language }, this.opts.storage);
    if (translationOn) this.tellLanguage(language);
  }

  /** The last lines the server sends on entering (after a reload too), without translations. */
  restore(lines: TranscriptEntry[]): void {
    let next = this.store.getSnapshot().lines;
    for (const l of lines) next = addLine(next, l);
    this.store.patch({ lines: next });
  }

  dispose(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.mic.stop();
  }
}
