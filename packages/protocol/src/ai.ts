import { z } from 'zod';
import { TRANSLATION_LANGUAGES } from './constants.js';
import { safe } from './safe-text.js';
export { AUDIO_STREAM } from './constants.js';

/**
 * The Pro plan's AI over the wire: summaries (spec §3 "Summary result", with owners, due dates and
 * the transcript lines each item came from), transcript lines, and what this server's engines can
 * serve. A language an engine cannot serve is reported as unsupported, never faked.
 */

export const translationLanguageSchema = z.enum(TRANSLATION_LANGUAGES);
export type TranslationLanguage = z.infer<typeof translationLanguageSchema>;

export const summaryPointSchema = z.object({
  text: z.string(),
  /** Ids of the transcript lines (or chat messages) it came from. */
  sources: z.array(z.string()),
});
export type SummaryPoint = z.infer<typeof summaryPointSchema>;

export const actionItemSchema = summaryPointSchema.extend({
  /** Who takes it, as named in the meeting; null when nobody was. */
  owner: z.string().nullable(),
  /** YYYY-MM-DD when a due date was stated; null otherwise. */
  due: z.string().nullable(),
});
export type ActionItem = z.infer<typeof actionItemSchema>;

export const meetingSummarySchema = z.object({
  summary: z.string(),
  keyPoints: z.array(summaryPointSchema),
  actionItems: z.array(actionItemSchema),
  decisions: z.array(summaryPointSchema),
});
export type MeetingSummary = z.infer<typeof meetingSummarySchema>;

/** One persisted transcript line (the whole transcript, not the room's last 20). */
export const transcriptLineSchema = z.object({
  id: z.string(),
  speakerName: z.string(),
  originalText: z.string(),
  language: z.string(),
  /** When the utterance started and ended (ISO 8601). */
  startedAt: z.string(),
  endedAt: z.string(),
  /** Added (issue 34): `notice` for a line about the transcription itself (who declined). */
  kind: z.enum(['speech', 'notice']).optional(),
});
export type TranscriptLine = z.infer<typeof transcriptLineSchema>;

/** GET /api/ai/capabilities: which languages this server's engines serve. */
export const aiCapabilitiesSchema = z.object({
  transcription: z.object({
    engine: z.string().nullable(),
    /** Spec §9 codes it transcribes; empty when transcription is off. */
    languages: z.array(z.string()),
    /**
     * The share of words this engine got right where we measured it (bench/results/), and on
     * what; null for an engine nobody measured here. The landing page shows this, never a figure
     * the running engine cannot back.
     */
    wordAccuracy: z.object({ percent: z.number(), measuredOn: z.string() }).nullable(),
  }),
  translation: z.object({
    engine: z.string().nullable(),
    /** Per target language of spec §9: can a line spoken in `from` be translated into it. */
    targets: z.array(z.object({ language: translationLanguageSchema, supported: z.boolean() })),
  }),
  summaries: z.object({ engine: z.string() }),
});
export type AiCapabilities = z.infer<typeof aiCapabilitiesSchema>;

/** POST /api/meetings/{id}/summary body (spec §7: the participants' names). */
export const summaryRequestSchema = z.object({
  participants: z
    .array(safe(z.string().max(100)))
    .max(500)
    .default([]),
});

/** The answer of the chunk calls (spec §7 /api/ai/live-transcribe). */
export const liveTranscribeResponseSchema = z.object({
  transcription: z.string(),
  translation: z.string().nullable(),
  detectedLanguage: z.string(),
});
