import { z } from 'zod';
import {
  BLUR_INTENSITY,
  DURATION_OPTIONS_MINUTES,
  MAX_PARTICIPANTS,
  PROFILE_NAME_MAX,
  RECURRENCE_PATTERNS,
  TIMEZONES,
} from './constants.js';
import { safe } from './safe-text.js';

/** Entities of product spec §3, as they travel over HTTP. */

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

const profileName = z
  .union([safe(z.string()), z.null()])
  .transform((v) => (v === null ? null : v.trim() === '' ? null : v.trim()))
  .refine((v) => v === null || v.length <= PROFILE_NAME_MAX, {
    message: `must be at most ${PROFILE_NAME_MAX} characters`,
  });

export const profileUpdateSchema = z.strictObject({
  firstName: profileName.optional(),
  lastName: profileName.optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const subscriptionStatusSchema = z.object({
  hasSubscription: z.boolean(),
  isActive: z.boolean(),
  daysUntilExpiry: z.number(),
  subscription: z
    .object({
      status: z.string(),
      currentPeriodEnd: z.string().nullable(),
      amount: z.string(),
      cancelAtPeriodEnd: z.boolean(),
    })
    .nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

export const subscriptionCreateResponseSchema = z.object({
  clientSecret: z.string().nullable(),
  subscription: z.object({ id: z.string(), status: z.string() }),
  message: z.string(),
});
export type SubscriptionCreateResponse = z.infer<typeof subscriptionCreateResponseSchema>;

export const confirmationResultSchema = z.object({
  success: z.boolean(),
  customer: z.object({ email: z.string() }),
  subscription: z.object({ planName: z.string(), amount: z.string(), status: z.string() }),
});
export type ConfirmationResult = z.infer<typeof confirmationResultSchema>;

export const meetingIdSchema = z
  .string()
  .trim()
  .regex(/^\d{3}-\d{3}-\d{3}$/, 'Meeting ID must look like 000-000-000');

export const meetingStatusSchema = z.enum(['scheduled', 'live', 'ended', 'cancelled']);
export type MeetingStatus = z.infer<typeof meetingStatusSchema>;
export const meetingTypeSchema = z.enum(['instant', 'scheduled']);
export type MeetingType = z.infer<typeof meetingTypeSchema>;

export const timezoneSchema = z.enum(TIMEZONES);
export const recurrencePatternSchema = z.enum(RECURRENCE_PATTERNS);
export const durationSchema = z
  .number()
  .int()
  .refine((d) => (DURATION_OPTIONS_MINUTES as readonly number[]).includes(d), {
    message: `duration must be one of ${DURATION_OPTIONS_MINUTES.join(', ')} minutes`,
  });
export const maxParticipantsSchema = z.number().int().min(MAX_PARTICIPANTS.min).max(MAX_PARTICIPANTS.max);

export const inviteeSchema = z.object({
  email: z.email(),
  name: safe(z.string().trim().max(100)).default(''),
});
export type Invitee = z.infer<typeof inviteeSchema>;

/** The meeting as the API returns it (never with a password). */
export const meetingSchema = z.object({
  id: z.string(),
  meetingId: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  hostId: z.string(),
  hostEmail: z.string().nullable(),
  scheduledFor: z.string().nullable(),
  duration: z.number().nullable(),
  timezone: z.string(),
  isRecurring: z.boolean(),
  recurrencePattern: recurrencePatternSchema.nullable(),
  meetingType: meetingTypeSchema,
  maxParticipants: z.number(),
  requiresPassword: z.boolean(),
  waitingRoom: z.boolean(),
  allowRecording: z.boolean(),
  isActive: z.boolean(),
  status: meetingStatusSchema,
  nextOccurrence: z.string().nullable(),
});
export type Meeting = z.infer<typeof meetingSchema>;

export const participantSchema = z.object({
  id: z.string(),
  name: z.string(),
  isHost: z.boolean(),
  isMuted: z.boolean(),
  isVideoOn: z.boolean(),
});
export type Participant = z.infer<typeof participantSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  content: z.string(),
  senderName: z.string(),
  senderId: z.string(),
  timestamp: z.string(),
  imageData: z.string().optional(),
  fileData: z
    .object({ id: z.string(), name: z.string(), size: z.number(), mimeType: z.string(), url: z.string() })
    .optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const transcriptEntrySchema = z.object({
  id: z.string(),
  speakerName: z.string(),
  originalText: z.string(),
  translatedText: z.string().nullable(),
  timestamp: z.string(),
  language: z.string(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export const summaryResultSchema = z.object({
  summary: z.string(),
  keyPoints: z.array(z.string()),
  actionItems: z.array(z.string()),
  decisions: z.array(z.string()),
});
export type SummaryResult = z.infer<typeof summaryResultSchema>;

export const backgroundTypeSchema = z.enum(['none', 'blur', 'virtual', 'custom']);
export type BackgroundType = z.infer<typeof backgroundTypeSchema>;

export const backgroundItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(['office', 'nature', 'abstract']),
  thumbnailUrl: z.string(),
  imageUrl: z.string(),
  isPremium: z.boolean(),
});
export type BackgroundItem = z.infer<typeof backgroundItemSchema>;

export const blurIntensitySchema = z.number().int().min(BLUR_INTENSITY.min).max(BLUR_INTENSITY.max);

export const backgroundPreferencesSchema = z.object({
  userId: z.string(),
  backgroundType: backgroundTypeSchema,
  blurIntensity: blurIntensitySchema,
  selectedBackgroundId: z.string().nullable(),
  customBackgroundUrl: z.string().nullable(),
});
export type BackgroundPreferences = z.infer<typeof backgroundPreferencesSchema>;

/** Every error the API answers with has this shape. */
export const apiErrorSchema = z.object({
  message: z.string(),
  requiresSubscription: z.boolean().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
