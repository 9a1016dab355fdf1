import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import {
  aiCapabilitiesSchema,
  liveTranscribeResponseSchema,
  meetingIdParamsSchema,
  meetingSummarySchema,
  summaryRequestSchema,
  transcriptLineSchema,
  translationLanguageSchema,
  safe,
} from '@parley/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, HttpError } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { presentedJoinToken } from '../rooms/access.js';
import { requirePro } from '../subscriptions/access.js';
import { summaryPdf } from './pdf.js';
import {
  TRANSCRIPT_CONTENT_TYPES,
  TRANSCRIPT_EXPORT_FORMATS,
  transcriptExport,
  transcriptFileName,
} from './transcript-export.js';

/** Largest audio clip the chunk calls take (a 2 s WebM chunk is ~30 KB; a minute of WAV ~2 MB). */
export const AI_AUDIO_MAX_BYTES = 10 * 1024 * 1024;
/** Per user and minute: summaries (each reads the whole meeting) and clip transcriptions. */
export const AI_ROUTE_LIMITS = { summaries: 10, clips: 90 };

const summaryViewSchema = meetingSummarySchema.extend({
  engine: z.string(),
  generatedAt: z.string(),
  sourceLines: z.number(),
  kept: z.boolean(),
});

/** The spec's summary file name: meeting-summary-{meetingId}-{date}. */
export const summaryFileName = (meetingId: string, date: Date, ext: 'txt' | 'pdf') =>
  `meeting-summary-${meetingId}-${date.toISOString().slice(0, 10)}.${ext}`;

/**
 * The AI calls of spec §7 and the ones the Tools tab needs: every one but capabilities needs Pro
 * (403 `requiresSubscription: true`, checked before the body is read); a meeting's AI content is
 * for its owner and the admitted participants of its live room (join token).
 */
export const aiRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ai } = app;
  await app.register(multipart, {
    limits: { fileSize: AI_AUDIO_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });
  await app.register(rateLimit, { global: false });
  const budget = (max: number, what: string) => {
    const check = app.createRateLimit({
      max,
      timeWindow: 60_000,
      keyGenerator: (request) => `ai-${what}:${request.auth?.user.id ?? request.ip}`,
    });
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        void reply.header('retry-after', result.ttlInSeconds);
        throw new HttpError(429, `Too many ${what} requests. Please wait ${result.ttlInSeconds} seconds.`);
      }
    };
  };
  const pro = async (request: FastifyRequest) => {
    await requirePro(app.subscriptions, request);
  };
  const access = (request: FastifyRequest, meetingId: string) =>
    ai.service.access(meetingId, requireUser(request), presentedJoinToken(request, meetingId));

  app.get('/api/ai/capabilities', { schema: { response: { 200: aiCapabilitiesSchema } } }, async () =>
    ai.service.capabilities(),
  );

  app.get(
    '/api/meetings/:meetingId/transcripts',
    {
      preValidation: pro,
      schema: {
        params: z.object({ meetingId: safe(z.string().max(64)) }),
        response: { 200: z.object({ transcripts: z.array(transcriptLineSchema) }) },
      },
    },
    async (request) => {
      const { meetingId } = request.params;
      // Spec §7: `test` is the subscription probe (Pro passes, others get the 403 above).
      if (meetingId === 'test') return { transcripts: [] };
      if (!meetingIdParamsSchema.safeParse({ meetingId }).success) throw badRequest('Invalid meeting id');
      const { meeting } = await access(request, meetingId);
      return { transcripts: await ai.service.transcript(meeting) };
    },
  );

  app.post(
    '/api/meetings/:meetingId/summary',
    {
      preValidation: pro,
      preHandler: budget(AI_ROUTE_LIMITS.summaries, 'summary'),
      schema: {
        params: meetingIdParamsSchema,
        body: summaryRequestSchema.optional(),
        response: { 200: summaryViewSchema },
      },
    },
    async (request) => {
      const { meeting, isOwner } = await access(request, request.params.meetingId);
      return ai.service.summarize(meeting, request.body?.participants ?? [], { save: isOwner });
    },
  );

  app.get(
    '/api/meetings/:meetingId/summary',
    {
      preValidation: pro,
      schema: {
        params: meetingIdParamsSchema,
        response: { 200: summaryViewSchema.extend({ attendees: z.array(z.string()) }) },
      },
    },
    async (request) => ai.service.savedSummary((await access(request, request.params.meetingId)).meeting),
  );

  // The transcript as WebVTT, SubRip or text (issue 35 item 4), for the same people as the list.
  app.get(
    '/api/meetings/:meetingId/transcripts/export',
    {
      preValidation: pro,
      schema: {
        params: meetingIdParamsSchema,
        querystring: z.object({ format: z.enum(TRANSCRIPT_EXPORT_FORMATS) }),
      },
    },
    async (request, reply) => {
      const { meeting } = await access(request, request.params.meetingId);
      const { format } = request.query;
      const body = transcriptExport(await ai.service.transcript(meeting), format, meeting);
      const date = meeting.scheduledFor ?? meeting.createdAt;
      return reply
        .header('content-type', TRANSCRIPT_CONTENT_TYPES[format])
        .header(
          'content-disposition',
          `attachment; filename="${transcriptFileName(meeting.meetingId, date, format)}"`,
        )
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );

  app.get(
    '/api/meetings/:meetingId/summary/pdf',
    { preValidation: pro, schema: { params: meetingIdParamsSchema } },
    async (request, reply) => {
      const { meeting } = await access(request, request.params.meetingId);
      const [summary, transcript] = await Promise.all([
        ai.service.savedSummary(meeting).catch((err: unknown) => {
          if (err instanceof HttpError && err.statusCode === 404) return null;
          throw err;
        }),
        ai.service.transcript(meeting),
      ]);
      const date = meeting.scheduledFor ?? meeting.createdAt;
      const pdf = await summaryPdf({
        meetingId: meeting.meetingId,
        title: meeting.title,
        date,
        summary,
        transcript,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="${summaryFileName(meeting.meetingId, date, 'pdf')}"`,
        )
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.put(
    '/api/meetings/:meetingId/retention',
    {
      preValidation: signedInFirst,
      schema: {
        params: meetingIdParamsSchema,
        body: z.object({ keep: z.boolean() }),
        response: { 200: z.object({ keep: z.boolean() }) },
      },
    },
    async (request) => {
      const { meeting, isOwner } = await access(request, request.params.meetingId);
      if (!isOwner) throw new HttpError(403, 'Only the host can save the meeting content');
      return ai.service.setKeep(meeting, request.body.keep);
    },
  );

  // Spec §7: a recorded chunk (multipart: audio, meetingId, participantId, speakerName and, for
  // live-transcribe, targetLanguage). Each chunk is a whole clip here; the room itself streams
  // audio over its socket (one continuous stream per speaker, no words lost at chunk edges).
  for (const url of ['/api/ai/transcribe', '/api/ai/live-transcribe']) {
    app.post(
      url,
      {
        preValidation: pro,
        preHandler: budget(AI_ROUTE_LIMITS.clips, 'transcription'),
        schema: { response: { 200: liveTranscribeResponseSchema } },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new HttpError(415, 'Send the audio as multipart/form-data in the field "audio"');
        }
        // One clip per user at a time, claimed before the upload is read; the caller leaving
        // (the response closed before it was sent) stops ffmpeg and the decoder.
        const release = await ai.service.claimClip(requireUser(request).id);
        const abort = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) abort.abort();
        };
        reply.raw.once('close', onClose);
        try {
          const { audio, target } = await readClip(request);
          return await ai.service.transcribeClip(audio, target, abort.signal);
        } finally {
          reply.raw.off('close', onClose);
          await release();
        }
      },
    );
  }
};

/** The multipart body of a clip call: the file in "audio" and an optional targetLanguage. */
async function readClip(request: FastifyRequest): Promise<{ audio: Buffer; target: string | null }> {
  let audio: Buffer | null = null;
  let target: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'audio') throw badRequest('The audio must be in the field "audio"');
        audio = await part.toBuffer();
      } else if (part.fieldname === 'targetLanguage' && typeof part.value === 'string' && part.value) {
        const lang = translationLanguageSchema.safeParse(part.value);
        if (!lang.success) throw badRequest(`Unknown targetLanguage: ${part.value.slice(0, 20)}`);
        target = lang.data;
      }
    }
  } catch (err) {
    // Ours, or the multipart parser's with a status (413 too large): as they are. A body the
    // parser cannot read (cut off, no closing boundary) is the client's error.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('The multipart body could not be read');
  }
  if (!audio || audio.length === 0) throw badRequest('No audio in the request (field "audio")');
  return { audio, target };
}
