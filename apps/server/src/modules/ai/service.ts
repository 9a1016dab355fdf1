import {
  TRANSLATION_LANGUAGES,
  type AiCapabilities,
  type MeetingSummary,
  type TranscriptLine,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError, notFound, tooManyRequests } from '../../http/errors.js';
import { ClipAbortedError, ClipFormatError, ClipTooLongError } from '../../providers/speech/ffmpeg.js';
import { SpeechCapacityError } from '../../providers/speech/types.js';
import { SummaryBudgetError, SummaryBusyError } from '../../providers/summaries/worker.js';
import type { SourceLine } from '../../providers/summaries/types.js';
import type { MeetingRow, UserRow } from '../../db/schema/index.js';
import type { RoomService } from '../rooms/service.js';
import type { AiEngines } from './types.js';
import type { AiRepository } from './repository.js';
import type { ClipClaims } from './clip-claims.js';
import type { SummaryCooldown } from './cooldown.js';
import { boundSummaryInput } from './summary-input.js';

/** What a saved summary holds besides the summary itself. */
export interface StoredSummary extends MeetingSummary {
  /** Everyone known to have been there: named by the client, speakers, chat senders, the room. */
  attendees: string[];
}

export interface SummaryView extends MeetingSummary {
  engine: string;
  generatedAt: string;
  /** Transcript lines and chat messages it read. */
  sourceLines: number;
  /** The host saved the meeting's content: the retention job leaves it. */
  kept: boolean;
}

/** A meeting the caller may read the AI content of: its owner, or a participant of its room. */
export interface MeetingAccess {
  meeting: MeetingRow;
  isOwner: boolean;
}

export const AI_MESSAGES = {
  nothingToSummarize:
    'There is no transcript or chat in this meeting yet: start transcription and talk first.',
  noSummary: 'No summary has been generated for this meeting yet',
  sttOff: 'Transcription is not available on this server',
  noTranscript: 'This meeting has no transcript',
  undecodable: 'Could not transcribe this audio: send WebM/Opus, Ogg, WAV or MP3 with speech in it',
  clipTooLong: (seconds: number) =>
    `This clip is longer than ${clipLength(seconds)}: send at most ${clipLength(seconds)} of audio.`,
  clipFormat: 'This audio format is not accepted: send WebM/Opus, Ogg, WAV, MP3, FLAC or M4A.',
  clipInFlight: 'You are already transcribing a clip. Wait for it to finish before sending another.',
  clipBusy: 'The server is busy transcribing other clips. Please try again in a minute.',
  clipAbandoned: 'The request was abandoned before its clip was transcribed',
  summaryCooldown: (seconds: number) =>
    `A summary of this meeting was just made. You can make a new one in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  summaryBusy: 'The server is busy making other summaries. Please try again in a minute.',
  summaryTooLong: (seconds: number) =>
    `The summary took longer than ${seconds} seconds and was stopped. Please try again later.`,
} as const;

/**
 * The Pro plan's AI outside the live room: the persisted transcript, summaries (from the whole
 * transcript and chat, with the lines each item came from), chunk transcription (spec §7), the
 * host's Save against retention, and what the engines can serve. Who may read a meeting's AI
 * content is decided by `access` (routes call it after the Pro check).
 */
/**
 * Word accuracy (100 − word error rate) of the engines we measured, on the speech closest to a
 * meeting's: the embedded pocketsphinx on Debian's recorded human speech (LibriVox), streamed live
 * as the room does: 26.8% WER (bench/results/speech-wer.json, de23494). Synthetic voices score
 * better (13.8% held-out) and are not what people sound like. Re-measure when the engine changes.
 */
const MEASURED_WORD_ACCURACY: Record<string, { percent: number; measuredOn: string }> = {
  pocketsphinx: { percent: 73, measuredOn: 'recorded human speech' },
};

export function createAiService(deps: {
  repo: AiRepository;
  engines: AiEngines;
  rooms: Pick<RoomService, 'participantOf' | 'room'>;
  log: FastifyBaseLogger;
  cooldown: SummaryCooldown;
  clipClaims: ClipClaims;
  /** AI_CLIP_MAX_SECONDS, in ms of decoded audio. */
  clipMaxMs: number;
}) {
  const { repo, engines } = deps;

  async function summarizeNow(
    meeting: MeetingRow,
    named: string[],
    options: { save: boolean },
  ): Promise<SummaryView> {
    const [lines, chat] = await Promise.all([repo.lines(meeting.id), repo.chat(meeting.id)]);
    const sources: SourceLine[] = [
      // The room's own notices (who declined) were not said by anyone.
      ...lines
        .filter((l) => l.kind !== 'notice')
        .map((l) => ({
          id: l.id,
          speaker: l.speakerName,
          text: l.text,
          at: l.startedAt.toISOString(),
          kind: 'speech' as const,
        })),
      ...chat
        .filter((c) => c.content.trim())
        .map((c) => ({
          id: c.id,
          speaker: c.senderName,
          text: c.content,
          at: c.createdAt.toISOString(),
          kind: 'chat' as const,
        })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    if (sources.length === 0) throw new HttpError(422, AI_MESSAGES.nothingToSummarize);
    const room = await deps.rooms.room(meeting.id);
    const inRoom = room
      ? [...room.members.values()].filter((m) => m.admission === 'admitted').map((m) => m.name)
      : [];
    const attendees = unique([...named, ...inRoom, ...sources.map((s) => s.speaker)]);
    const read = boundSummaryInput(sources);
    if (read.skipped > 0)
      deps.log.info({ meetingId: meeting.meetingId, skipped: read.skipped }, 'a summary left lines out');
    const summary = await engines.summarizer.summarize({
      lines: read.lines,
      participants: attendees,
      meetingDate: (meeting.scheduledFor ?? meeting.createdAt).toISOString(),
    });
    const stored: StoredSummary = { ...summary, attendees };
    if (!options.save) {
      const generated = { summary: stored, engine: engines.summarizer.name, createdAt: new Date() };
      return view({ ...generated, sourceLines: read.lines.length }, false);
    }
    const row = await repo.saveSummary(meeting.id, stored, engines.summarizer.name, read.lines.length);
    return view(row, meeting.keepContent);
  }

  return {
    /**
     * The meeting's owner, or an admitted participant of its live room (by join token). Anyone
     * else gets 401/403 without learning whether the meeting exists.
     */
    async access(publicId: string, user: UserRow, joinToken: string | null): Promise<MeetingAccess> {
      const meeting = await repo.findMeeting(publicId);
      if (meeting && meeting.hostId === user.id) return { meeting, isOwner: true };
      await deps.rooms.participantOf(publicId, joinToken, 'use its AI features');
      if (!meeting) throw notFound('Meeting not found');
      return { meeting, isOwner: false };
    },

    async transcript(meeting: MeetingRow): Promise<TranscriptLine[]> {
      return (await repo.lines(meeting.id)).map((l) => ({
        id: l.id,
        speakerName: l.speakerName,
        originalText: l.text,
        language: l.language,
        startedAt: l.startedAt.toISOString(),
        endedAt: l.endedAt.toISOString(),
        ...(l.kind === 'notice' ? { kind: 'notice' as const } : {}),
      }));
    },

    /**
     * Summarises the transcript and chat (bounded: summary-input.ts) and answers it. Only the
     * host's (`save`) is saved, replacing the last: any Pro participant may generate one for
     * themselves, but the saved summary and its attendee list are the host's (the security review
     * saw a Pro participant overwrite them, attendees included). One saved summary per meeting
     * per cooldown, and one for all its other Pro participants together (429 with Retry-After):
     * at most two summaries of a meeting per cooldown, and nobody else's holds back the host's.
     * A summary the engine gave up on (its time budget, or too many waiting) is a 503.
     */
    async summarize(meeting: MeetingRow, named: string[], options: { save: boolean }): Promise<SummaryView> {
      const key = options.save ? meeting.id : `${meeting.id}:others`;
      const wait = await deps.cooldown.claim(key);
      if (wait > 0) throw tooManyRequests(AI_MESSAGES.summaryCooldown(Math.ceil(wait / 1000)), wait);
      try {
        return await summarizeNow(meeting, named, options);
      } catch (err) {
        // Nothing was read (no lines yet, the summariser busy): asking again is no extra load.
        if (!(err instanceof SummaryBudgetError)) await deps.cooldown.release(key);
        if (err instanceof SummaryBusyError)
          throw new HttpError(503, AI_MESSAGES.summaryBusy, {}, { 'retry-after': '30' });
        if (err instanceof SummaryBudgetError) {
          deps.log.warn(
            { meetingId: meeting.meetingId, budgetMs: err.budgetMs },
            'a summary ran out of time',
          );
          throw new HttpError(503, AI_MESSAGES.summaryTooLong(Math.round(err.budgetMs / 1000)));
        }
        throw err;
      }
    },

    /** The last summary generated (a reload shows it again). */
    async savedSummary(meeting: MeetingRow): Promise<SummaryView & { attendees: string[] }> {
      const row = await repo.summary(meeting.id);
      if (!row) throw notFound(AI_MESSAGES.noSummary);
      return { ...view(row, meeting.keepContent), attendees: (row.summary as StoredSummary).attendees ?? [] };
    },

    async setKeep(meeting: MeetingRow, keep: boolean): Promise<{ keep: boolean }> {
      await repo.setKeepContent(meeting.id, keep);
      return { keep };
    },

    /**
     * Claims the user's one clip in flight (before its upload is read): the release, or a 429
     * when another of the user's clips is still being transcribed.
     */
    async claimClip(userId: string): Promise<() => Promise<void>> {
      const release = await deps.clipClaims.claim(userId);
      if (!release) throw tooManyRequests(AI_MESSAGES.clipInFlight, 5_000);
      return release;
    },

    /**
     * A whole clip (spec §7 chunk calls): its text, language and, if asked, a translation. At most
     * `clipMaxMs` of audio (counted as it is decoded); `signal` (the request aborted) stops it.
     */
    async transcribeClip(audio: Buffer, targetLanguage: string | null, signal?: AbortSignal) {
      if (!engines.stt) throw new HttpError(503, `${AI_MESSAGES.sttOff}: ${engines.sttOff ?? 'off'}`);
      let text: string;
      let language: string;
      try {
        ({ text, language } = await engines.stt.transcribeClip(audio, { maxMs: deps.clipMaxMs, signal }));
      } catch (err) {
        if (err instanceof ClipTooLongError)
          throw new HttpError(413, AI_MESSAGES.clipTooLong(deps.clipMaxMs / 1000));
        if (err instanceof ClipFormatError) throw new HttpError(415, AI_MESSAGES.clipFormat);
        if (err instanceof SpeechCapacityError)
          throw new HttpError(503, AI_MESSAGES.clipBusy, {}, { 'retry-after': '30' });
        // Nobody reads this answer; it is said for the log.
        if (err instanceof ClipAbortedError || signal?.aborted)
          throw new HttpError(499, AI_MESSAGES.clipAbandoned);
        deps.log.info({ err }, 'a clip could not be transcribed');
        throw new HttpError(422, AI_MESSAGES.undecodable);
      }
      let translation: string | null = null;
      const translator = engines.translator;
      if (
        text &&
        targetLanguage &&
        targetLanguage !== language &&
        translator?.supports(language, targetLanguage)
      ) {
        translation = await translator.translate(text, language, targetLanguage);
      }
      return { transcription: text, translation, detectedLanguage: language };
    },

    async capabilities(): Promise<AiCapabilities> {
      const stt = engines.stt;
      // LibreTranslate says what it serves once its language list has answered.
      await engines.translator?.ready?.().catch(() => undefined);
      const spoken = stt ? (stt.languages === 'any' ? [...TRANSLATION_LANGUAGES] : [...stt.languages]) : [];
      // What listeners can pick: a language some transcribed language can be translated into (or
      // is); a line that cannot be translated for a listener says so (translationError).
      const translator = engines.translator;
      return {
        transcription: {
          engine: stt?.name ?? null,
          languages: spoken,
          wordAccuracy: (stt && MEASURED_WORD_ACCURACY[stt.name]) ?? null,
        },
        translation: {
          engine: translator?.name ?? null,
          targets: TRANSLATION_LANGUAGES.map((language) => ({
            language,
            supported:
              spoken.length > 0 &&
              spoken.some((from) => from === language || (translator?.supports(from, language) ?? false)),
          })),
        },
        summaries: { engine: engines.summarizer.name },
      };
    },
  };
}
export type AiService = ReturnType<typeof createAiService>;

function view(
  row: { summary: MeetingSummary; engine: string; createdAt: Date; sourceLines: number },
  kept: boolean,
): SummaryView {
  const { summary, keyPoints, actionItems, decisions } = row.summary;
  return {
    summary,
    keyPoints,
    actionItems,
    decisions,
    engine: row.engine,
    generatedAt: row.createdAt.toISOString(),
    sourceLines: row.sourceLines,
    kept,
  };
}

/** 600 → "10 minutes", 90 → "90 seconds". */
function clipLength(seconds: number): string {
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
}

function unique(names: string[]): string[] {
  const seen = new Map<string, string>();
  for (const n of names) {
    const name = n.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}
