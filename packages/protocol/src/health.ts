import { z } from 'zod';
import { TRANSLATION_LANGUAGES } from './constants.js';

/**
 * This server's SFU (issue 38 item 4): `up` (Janus connected), `connecting` (configured, not
 * answering yet or restarting: meetings stay peer-to-peer meanwhile), `off` (none: `reason` says
 * why in a few words, e.g. Janus not installed, or the native addon janode needs did not load).
 */
export const sfuStatusSchema = z.object({
  state: z.enum(['up', 'connecting', 'off']),
  reason: z.string().nullable(),
});
export type SfuStatus = z.infer<typeof sfuStatusSchema>;

export const healthResponseSchema = z.object({ status: z.literal('ok'), sfu: sfuStatusSchema });
export const readyResponseSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;

/**
 * GET /api/features: what THIS server does now (issue 37 item 10), so pages and e-mails never
 * promise an engine or Janus it lacks. `features` is the build's FEATURE_AVAILABILITY narrowed
 * by the running engines: transcription needs a speech engine, translation one language it can
 * translate into, recording Janus with a recordings folder and its tools. `translationLanguages`:
 * the listener languages a transcribed line can be given in.
 */
export const serverFeaturesSchema = z.object({
  features: z.object({
    transcription: z.boolean(),
    translation: z.boolean(),
    summaries: z.boolean(),
    pdfExport: z.boolean(),
    analytics: z.boolean(),
    backgroundEffects: z.boolean(),
    whiteboard: z.boolean(),
    recording: z.boolean(),
    largeMeetings: z.boolean(),
  }),
  translationLanguages: z.array(z.enum(TRANSLATION_LANGUAGES)),
  /** Whether meetings of three or more can go through the SFU here. */
  sfu: sfuStatusSchema,
});
export type ServerFeatures = z.infer<typeof serverFeaturesSchema>;
