import { z } from 'zod';
import { BLUR_INTENSITY } from './constants.js';
import {
  backgroundItemSchema,
  backgroundTypeSchema,
  blurIntensitySchema,
  type BackgroundType,
} from './entities.js';
export { CUSTOM_BACKGROUND_LIMITS } from './constants.js';
export { BACKGROUND_MESSAGES } from './texts.js';
import { BACKGROUND_MESSAGES } from './texts.js';

/**
 * Background effects (spec §3, §5, §7): the catalogue, a user's saved preferences, custom uploads
 * and the effect a participant applies inside a meeting. The entity shapes live in entities.ts;
 * this file holds the request bodies, answers and limits both sides share.
 */

export const backgroundCatalogueSchema = z.array(backgroundItemSchema);

/** A catalogue id: lowercase words joined by dashes (they appear in URLs). */
export const backgroundIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Unknown background');

/** The address of one of the signed-in user's own uploads (as answered by the upload). */
export const customBackgroundUrlSchema = z.string().max(200);

/**
 * PUT /api/backgrounds/preferences (spec §7: userId, backgroundType, plus blurIntensity or
 * backgroundId). Fields left out keep their saved value, so switching to None keeps the
 * intensity and the last picture for the next time.
 */
export const backgroundPreferencesUpdateSchema = z
  .object({
    /** Sent by the spec's client; when present it must be the signed-in user's own id. */
    userId: z.string().max(64).optional(),
    backgroundType: backgroundTypeSchema,
    blurIntensity: blurIntensitySchema.optional(),
    backgroundId: backgroundIdSchema.nullable().optional(),
    customBackgroundUrl: customBackgroundUrlSchema.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.backgroundType === 'virtual' && !v.backgroundId)
      ctx.addIssue({ code: 'custom', path: ['backgroundId'], message: BACKGROUND_MESSAGES.virtualNeedsId });
    if (v.backgroundType === 'custom' && !v.customBackgroundUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['customBackgroundUrl'],
        message: BACKGROUND_MESSAGES.customNeedsUrl,
      });
  });
export type BackgroundPreferencesUpdate = z.infer<typeof backgroundPreferencesUpdateSchema>;

/** POST /api/meetings/{meetingId}/participants/{participantId}/background (spec §3, §7). */
export const participantBackgroundSchema = z
  .object({
    backgroundType: backgroundTypeSchema,
    backgroundId: backgroundIdSchema.nullable().optional(),
    blurIntensity: blurIntensitySchema.optional(),
    customBackgroundUrl: customBackgroundUrlSchema.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.backgroundType === 'virtual' && !v.backgroundId)
      ctx.addIssue({ code: 'custom', path: ['backgroundId'], message: BACKGROUND_MESSAGES.virtualNeedsId });
    if (v.backgroundType === 'custom' && !v.customBackgroundUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['customBackgroundUrl'],
        message: BACKGROUND_MESSAGES.customNeedsUrl,
      });
  });
export type ParticipantBackgroundInput = z.infer<typeof participantBackgroundSchema>;

/** The server's record of a participant's effect; it echoes backgroundType (spec §7). */
export const participantBackgroundResponseSchema = z.object({
  participantId: z.string(),
  backgroundType: backgroundTypeSchema,
  backgroundId: z.string().nullable(),
  blurIntensity: blurIntensitySchema,
  customBackgroundUrl: z.string().nullable(),
});
export type ParticipantBackground = z.infer<typeof participantBackgroundResponseSchema>;

/** One of a user's uploaded backgrounds (Pro). */
export const customBackgroundSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.string(),
});
export type CustomBackground = z.infer<typeof customBackgroundSchema>;
export const customBackgroundListSchema = z.array(customBackgroundSchema);

export const customBackgroundUrl = (id: string): string => `/api/backgrounds/custom/${id}`;

/** The id inside one of our custom background URLs, or null when it is not one. */
export function customBackgroundIdFromUrl(url: string): string | null {
  const m =
    /^\/api\/backgrounds\/custom\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(url);
  return m ? m[1]!.toLowerCase() : null;
}

export const DEFAULT_BACKGROUND_PREFERENCES = {
  backgroundType: 'none' as BackgroundType,
  blurIntensity: BLUR_INTENSITY.default,
  selectedBackgroundId: null as string | null,
  customBackgroundUrl: null as string | null,
};
