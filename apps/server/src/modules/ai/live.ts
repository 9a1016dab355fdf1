import type { ServerMessageOf } from '@parley/protocol';
import { TRANSCRIPTION_TEXTS } from '@parley/protocol/texts';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  type PartialUtterance,
  SpeechCapacityError,
  type SpeechStream,
  type Utterance,
} from '../../providers/speech/types.js';
import { consentOf, transcribable, type ConsentNotice } from '../rooms/consent.js';
import type { RoomService } from '../rooms/service.js';
import type { RoomState } from '../rooms/state.js';
import type { Actor, RoomTransport } from '../rooms/transport.js';
import type { AiEngines } from './types.js';
import type { AiRepository } from './repository.js';
import { formatLine } from './line-format.js';

type Transcript = ServerMessageOf<'new_transcript'>['transcript'];
type Partial = ServerMessageOf<'transcript_partial'>['partial'];

export interface LiveCaptionTimings {
  /** No audio from a speaker this long: its utterance in progress ends (mute, a pause in frames). */
  flushAfterMs: number;
  /** No audio this long: the speaker's decoder is given back. */
  closeAfterMs: number;
  /** A speaker refused a stream (every decoder busy) is tried again this much later. */
  reopenAfterMs: number;
  /**
   * Interim words go out at most once in this long per speaker (the latest words at the end of
   * it): about 3 a second, however often the engine has new ones.
   */
  partialEveryMs: number;
}
/**
 * Browsers send only speech (with 1.2 s of trailing quiet, see the web's pcm-worklet.ts), so a
 * pause in frames is a pause in speech, and a speaker quiet for 5 s gives its decoder back.
 */
export const LIVE_CAPTION_TIMINGS: LiveCaptionTimings = {
  flushAfterMs: 700,
  closeAfterMs: 5_000,
  reopenAfterMs: 1_000,
  partialEveryMs: 330,
};

interface Speaker {
  roomId: string;
  name: string;
  stream: SpeechStream;
  flushTimer: ReturnType<typeof setTimeout> | null;
  closeTimer: ReturnType<typeof setTimeout> | null;
  /** Audio written so far (ms of 16 kHz mono s16le). */
  fedMs: number;
  /** The recent frames: the stream time each one ended at, and when it arrived (ms). */
  frames: Array<{ endMs: number; at: number }>;
  /** The speaker declined: what its stream still decodes is thrown away, never saved or sent. */
  discarded: boolean;
  /** Names this stream's segments (with the utterance's seq): `segmentId` of partials and lines. */
  streamId: string;
  /** Interim words: when the last went out, the latest not sent yet, and its timer. */
  partials: {
    sentAt: number;
    pending: PartialUtterance | null;
    timer: ReturnType<typeof setTimeout> | null;
    /** Segments whose partials listeners may be showing (withdrawn if no line replaces them). */
    shown: Set<number>;
    /** Segments already ended (a late partial of one is not sent). */
    ended: number;
  };
  /** The last line was cut mid-sentence: the next one continues it. */
  continues: boolean;
}

/** Frames remembered per speaker for the speech-to-text latency (about 30 s of 100 ms frames). */
const FRAMES_KEPT = 300;
/** 16 kHz mono s16le: 32 bytes a millisecond. */
const BYTES_PER_MS = 32;

/**
 * Live captions: one continuous speech stream per speaker (its socket's audio frames), utterances
 * ended where speech stops, each line persisted with its speaker and times, then sent to every
 * listener in the room in the language that listener chose, translated once per language in use.
 * The speaker is the server's record of the socket; a frame counts only while the meeting's
 * transcription is on and its participant is admitted, not muted, and allowed it (consent.ts):
 * a participant who declined, or has not answered the notice yet, is not transcribed whatever
 * its socket sends.
 */
export function createLiveCaptions(deps: {
  rooms: Pick<RoomService, 'room'>;
  transport: Pick<RoomTransport, 'publish'>;
  engines: AiEngines;
  repo: Pick<AiRepository, 'insertLine'>;
  log: FastifyBaseLogger;
  timings?: LiveCaptionTimings;
  /**
   * Speech-to-text latency (seconds): from the arrival of the audio frame in which an utterance
   * ended to the engine's text of it (/metrics).
   */
  onSpeechLatency?: (seconds: number) => void;
}) {
  const { engines, log } = deps;
  const timings = deps.timings ?? LIVE_CAPTION_TIMINGS;
  const speakers = new Map<string, Speaker>();
  /**
   * Speakers refused a stream, with when to try again: they were told (`caption_status`), and are
   * told again when their captions start. The engine's cap is not retried on every 100 ms frame.
   */
  const refused = new Map<string, { roomId: string; retryAt: number }>();
  /** Lines in flight (persist + translate + send), so close() can wait for them. */
  const inFlight = new Set<Promise<void>>();

  function stop(participantId: string, discard = false): Promise<void> {
    const speaker = speakers.get(participantId);
    if (!speaker) return Promise.resolve();
    speakers.delete(participantId);
    if (discard) speaker.discarded = true;
    if (speaker.flushTimer) clearTimeout(speaker.flushTimer);
    if (speaker.closeTimer) clearTimeout(speaker.closeTimer);
    if (speaker.partials.timer) clearTimeout(speaker.partials.timer);
    speaker.partials.pending = null;
    // A decliner's words still on screen are withdrawn now; otherwise its last line replaces them.
    if (discard) for (const seq of speaker.partials.shown) withdraw(participantId, speaker, seq);
    return speaker.stream
      .close()
      .catch((err: unknown) => log.warn({ err }, 'closing a speech stream failed'));
  }

  function tellSpeaker(roomId: string, participantId: string, reason: 'busy' | 'failed' | null): void {
    deps.transport.publish(
      roomId,
      { kind: 'one', participantId },
      { type: 'caption_status', captioned: reason === null, reason },
    );
  }

  function open(room: RoomState, participantId: string, name: string): Speaker | null {
    const stt = engines.stt;
    if (!stt) return null;
    const before = refused.get(participantId);
    if (before && Date.now() < before.retryAt) return null;
    try {
      let speaker: Speaker | null = null;
      const stream = stt.openStream({
        language: 'en',
        onUtterance: (u) => {
          if (!speaker || speaker.discarded) return;
          measure(participantId, u);
          ended(speaker, u.seq);
          track(deliver(room.id, participantId, speaker, u));
        },
        onPartial: (p) => {
          if (speaker && !speaker.discarded) partial(participantId, speaker, p);
        },
        onError: (err) => log.warn({ err, participantId }, 'speech stream failed'),
      });
      speaker = {
        roomId: room.id,
        name,
        stream,
        flushTimer: null,
        closeTimer: null,
        fedMs: 0,
        frames: [],
        discarded: false,
        streamId: randomBytes(6).toString('base64url'),
        partials: { sentAt: 0, pending: null, timer: null, shown: new Set(), ended: 0 },
        continues: false,
      };
      speakers.set(participantId, speaker);
      if (before) {
        refused.delete(participantId);
        tellSpeaker(room.id, participantId, null);
      }
      return speaker;
    } catch (err) {
      // The engine refuses more streams (its cap) or cannot start: this speaker is not captioned
      // now, and is told so once; a frame after reopenAfterMs tries again.
      const reason = err instanceof SpeechCapacityError ? 'busy' : 'failed';
      if (!before) {
        log.warn({ err, participantId }, 'could not open a speech stream');
        tellSpeaker(room.id, participantId, reason);
      }
      refused.set(participantId, { roomId: room.id, retryAt: Date.now() + timings.reopenAfterMs });
      return null;
    }
  }

  /** The latency of an utterance the engine just gave: now, less when its last frame arrived. */
  function measure(participantId: string, u: Utterance): void {
    const frames = speakers.get(participantId)?.frames;
    const last = frames?.find((f) => f.endMs >= u.endMs);
    if (last) deps.onSpeechLatency?.((Date.now() - last.at) / 1000);
  }

  function track(p: Promise<void>): void {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  /** Re-arms the speaker's timers on each frame: a pause ends the utterance, a long one the stream. */
  function rearm(participantId: string, speaker: Speaker): void {
    if (speaker.flushTimer) clearTimeout(speaker.flushTimer);
    if (speaker.closeTimer) clearTimeout(speaker.closeTimer);
    speaker.flushTimer = setTimeout(() => {
      speaker.flushTimer = null;
      speaker.stream.flush().catch((err: unknown) => log.warn({ err }, 'speech flush failed'));
    }, timings.flushAfterMs);
    speaker.closeTimer = setTimeout(() => void stop(participantId), timings.closeAfterMs);
    speaker.flushTimer.unref?.();
    speaker.closeTimer.unref?.();
  }

  const segmentOf = (speaker: Speaker, seq: number) => `${speaker.streamId}.${seq}`;

  /**
   * Interim words from the engine: sent at once when the last went out partialEveryMs ago,
   * otherwise the latest are sent when that time is up (older ones are dropped, never queued).
   */
  function partial(participantId: string, speaker: Speaker, p: PartialUtterance): void {
    const state = speaker.partials;
    if (p.seq <= state.ended) return;
    state.pending = p;
    if (state.timer) return;
    const wait = state.sentAt + timings.partialEveryMs - Date.now();
    if (wait <= 0) return void sendPartial(participantId, speaker);
    state.timer = setTimeout(() => {
      state.timer = null;
      sendPartial(participantId, speaker);
    }, wait);
    state.timer.unref?.();
  }

  /** The segment's final line came: a partial of it still waiting is not sent. */
  function ended(speaker: Speaker, seq: number | undefined): void {
    if (seq === undefined) return;
    const state = speaker.partials;
    state.ended = Math.max(state.ended, seq);
    if (state.pending && state.pending.seq <= seq) state.pending = null;
  }

  function sendPartial(participantId: string, speaker: Speaker): void {
    const state = speaker.partials;
    const p = state.pending;
    state.pending = null;
    if (!p || p.seq <= state.ended || speaker.discarded) return;
    state.sentAt = Date.now();
    track(
      (async () => {
        const room = await deps.rooms.room(speaker.roomId);
        const member = room?.members.get(participantId);
        // Consent is checked for every partial as for every line: a decline stops them at once.
        if (!room || !member || !transcribable(room, member) || speaker.discarded) return;
        if (p.seq <= state.ended) return;
        state.shown.add(p.seq);
        const at = new Date(Date.now() - Math.max(0, p.endMs - p.startMs));
        publishPartial(room, {
          segmentId: segmentOf(speaker, p.seq),
          participantId,
          speakerName: member.name,
          text: p.text,
          language: 'en',
          timestamp: at.toISOString(),
        });
      })(),
    );
  }

  function publishPartial(room: RoomState, partialMessage: Partial): void {
    for (const m of listenersOf(room)) {
      deps.transport.publish(
        room.id,
        { kind: 'one', participantId: m.id },
        { type: 'transcript_partial', partial: partialMessage },
      );
    }
  }

  /** Listeners drop a segment's interim words: no line replaces them (nothing kept, a decline). */
  function withdraw(participantId: string, speaker: Speaker, seq: number): void {
    speaker.partials.shown.delete(seq);
    track(
      (async () => {
        const room = await deps.rooms.room(speaker.roomId);
        if (!room) return;
        publishPartial(room, {
          segmentId: segmentOf(speaker, seq),
          participantId,
          speakerName: speaker.name,
          text: '',
          language: 'en',
          timestamp: new Date().toISOString(),
        });
      })(),
    );
  }

  async function deliver(
    roomId: string,
    participantId: string,
    speaker: Speaker,
    u: Utterance,
  ): Promise<void> {
    const shown = u.seq !== undefined && speaker.partials.shown.delete(u.seq);
    const room = await deps.rooms.room(roomId);
    // Declined while this was being decoded (here, or through another instance): not kept.
    const member = room?.members.get(participantId);
    const declined = !!member && consentOf(member) === 'declined';
    const line = formatLine({
      text: u.text.trim(),
      words: u.words,
      endedBy: u.endedBy,
      continues: speaker.continues,
      names: room ? [...room.members.values()].map((m) => m.name) : [],
    });
    if (!line.text || declined) {
      if (shown && u.seq !== undefined && room) withdraw(participantId, speaker, u.seq);
      return;
    }
    speaker.continues = line.continues;
    const text = line.text;
    const speakerName =
      room?.members.get(participantId)?.name ?? speakers.get(participantId)?.name ?? 'Speaker';
    const endedAt = new Date();
    const startedAt = new Date(endedAt.getTime() - Math.max(0, u.endMs - u.startMs));
    let id: string;
    try {
      const row = await deps.repo.insertLine({
        meetingId: roomId,
        participantId,
        speakerName,
        text,
        language: u.language,
        startedAt,
        endedAt,
        kind: 'speech',
      });
      id = row.id;
    } catch (err) {
      log.error({ err, roomId }, 'could not save a transcript line');
      if (shown && u.seq !== undefined) withdraw(participantId, speaker, u.seq);
      return;
    }
    if (!room) return;
    const base: Transcript = {
      id,
      speakerName,
      originalText: text,
      translatedText: null,
      timestamp: startedAt.toISOString(),
      language: u.language,
      participantId,
      translationLanguage: null,
      translationError: null,
      ...(u.seq !== undefined ? { segmentId: segmentOf(speaker, u.seq) } : {}),
    };
    const listeners = listenersOf(room);
    const wanted = new Set(listeners.map((m) => m.captionLanguage).filter((l): l is string => !!l));
    const translations = new Map<string, Pick<Transcript, 'translatedText' | 'translationError'>>();
    await Promise.all(
      [...wanted].map(async (to) => {
        if (to === u.language) return;
        const translator = engines.translator;
        if (!translator || !translator.supports(u.language, to)) {
          translations.set(to, { translatedText: null, translationError: 'unsupported' });
          return;
        }
        try {
          translations.set(to, {
            translatedText: await translator.translate(text, u.language, to),
            translationError: null,
          });
        } catch (err) {
          log.warn({ err, from: u.language, to }, 'translation of a transcript line failed');
          translations.set(to, { translatedText: null, translationError: 'failed' });
        }
      }),
    );
    for (const m of listeners) {
      const lang = m.captionLanguage;
      const extra = lang && translations.get(lang);
      const transcript: Transcript = extra
        ? { ...base, ...extra, translationLanguage: extra.translatedText ? lang : null }
        : base;
      deps.transport.publish(
        roomId,
        { kind: 'one', participantId: m.id },
        { type: 'new_transcript', transcript },
      );
    }
  }

  /** Who hears a line: the room's admitted participants with a socket (declined ones too). */
  function listenersOf(room: RoomState) {
    return [...room.members.values()].filter((m) => m.admission === 'admitted' && m.socketId);
  }

  return {
    /**
     * A binary frame from a participant's socket: 16 kHz mono s16le PCM. Dropped (and the
     * speaker's stream closed) unless transcription is on and the participant is admitted, not
     * muted and allowed it; what a participant who declined still streams is thrown away.
     */
    async audio(actor: Actor, pcm: Buffer): Promise<void> {
      const room = await deps.rooms.room(actor.roomId);
      const member = room?.members.get(actor.participantId);
      if (!room || !member || !transcribable(room, member)) {
        refused.delete(actor.participantId);
        const declined = !!member && consentOf(member) === 'declined';
        if (speakers.has(actor.participantId)) await stop(actor.participantId, declined);
        return;
      }
      const speaker = speakers.get(actor.participantId) ?? open(room, actor.participantId, member.name);
      if (!speaker) return;
      speaker.name = member.name;
      speaker.fedMs += pcm.length / BYTES_PER_MS;
      speaker.frames.push({ endMs: speaker.fedMs, at: Date.now() });
      if (speaker.frames.length > FRAMES_KEPT) speaker.frames.shift();
      speaker.stream.write(pcm);
      rearm(actor.participantId, speaker);
    },

    /**
     * A listener chose a language: its translation pipeline starts now (the embedded engine's
     * first call takes 0.1-1 s), so the first line it hears is not the slow one.
     */
    prewarm(to: string): void {
      const translator = engines.translator;
      if (!translator || to === 'en' || !translator.supports('en', to)) return;
      translator
        .translate('Hello.', 'en', to)
        .catch((err: unknown) => log.warn({ err, to }, 'translation warm-up failed'));
    },

    /**
     * A participant declined: its stream ends at once, and what it still holds is thrown away
     * (nothing it said after the decline reaches the transcript).
     */
    async declined(participantId: string): Promise<void> {
      refused.delete(participantId);
      await stop(participantId, true);
    },

    /**
     * The transcript says what a participant answered (`declined`, or allowed again): a line of
     * kind `notice`, saved with the meeting's transcript and sent to everyone in the room.
     */
    async notice(roomId: string, who: { id: string; name: string }, notice: ConsentNotice): Promise<void> {
      if (!notice) return;
      const room = await deps.rooms.room(roomId);
      if (!room || room.meeting.ephemeral) return;
      const text =
        notice === 'declined'
          ? TRANSCRIPTION_TEXTS.declinedLine(who.name)
          : TRANSCRIPTION_TEXTS.allowedLine(who.name);
      const at = new Date();
      let id: string;
      try {
        const row = await deps.repo.insertLine({
          meetingId: roomId,
          participantId: who.id,
          speakerName: who.name,
          text,
          language: 'en',
          startedAt: at,
          endedAt: at,
          kind: 'notice',
        });
        id = row.id;
      } catch (err) {
        log.error({ err, roomId }, 'could not save a transcription notice');
        return;
      }
      const transcript: Transcript = {
        id,
        speakerName: who.name,
        originalText: text,
        translatedText: null,
        timestamp: at.toISOString(),
        language: 'en',
        participantId: who.id,
        translationLanguage: null,
        translationError: null,
        kind: 'notice',
      };
      for (const m of listenersOf(room)) {
        deps.transport.publish(
          roomId,
          { kind: 'one', participantId: m.id },
          { type: 'new_transcript', transcript },
        );
      }
    },

    /** Transcription went off in a room: its speakers' streams end (their last words delivered). */
    async stopRoom(roomId: string): Promise<void> {
      for (const [id, r] of refused) if (r.roomId === roomId) refused.delete(id);
      await Promise.all([...speakers].filter(([, s]) => s.roomId === roomId).map(([id]) => stop(id)));
    },

    /** How many speakers are streaming now (metrics, tests). */
    get activeSpeakers(): number {
      return speakers.size;
    },

    /** Server shutdown: every stream ends and the lines in flight are sent. */
    async close(): Promise<void> {
      refused.clear();
      await Promise.all([...speakers.keys()].map((id) => stop(id)));
      await Promise.allSettled([...inFlight]);
    },
  };
}
export type LiveCaptions = ReturnType<typeof createLiveCaptions>;
