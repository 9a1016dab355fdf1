import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { recordingIdParamsSchema, recordingListSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors.js';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { attachmentHeader } from '../files/service.js';

/**
 * Recordings for their meeting's host: the list (My Meetings), the download, streamed from
 * disk as an attachment (404 unknown, 403 another host's meeting, 409 not ready yet), and
 * deleting one (204; 409 while it records), which frees the host's recording storage.
 */
export const recordingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/recordings',
    { preValidation: signedInFirst, schema: { response: { 200: recordingListSchema } } },
    async (request) => app.recordings.listMine(requireUser(request)),
  );

  app.delete(
    '/api/recordings/:id',
    { preValidation: signedInFirst, schema: { params: recordingIdParamsSchema } },
    async (request, reply) => {
      await app.recordings.deleteOne(requireUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  /**
   * The file for its host: `download` as an attachment, `play` inline for the app's player, both
   * with byte ranges (a player seeks with `Range: bytes=a-b`; one range per request).
   */
  for (const mode of ['download', 'play'] as const) {
    app.get(
      `/api/recordings/:id/${mode}`,
      { preValidation: signedInFirst, schema: { params: recordingIdParamsSchema } },
      async (request, reply) => {
        const { file, name } = await app.recordings.forDownload(requireUser(request), request.params.id);
        const size = await stat(file).then(
          (s) => s.size,
          () => null,
        );
        if (size === null) throw notFound('The recording’s file is gone');
        reply
          .header('content-type', 'video/mp4')
          .header('accept-ranges', 'bytes')
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store');
        if (mode === 'download') reply.header('content-disposition', attachmentHeader(name));
        const range = byteRange(request.headers.range, size);
        if (range === 'unsatisfiable') {
          return reply.code(416).header('content-range', `bytes */${size}`).send();
        }
        if (!range) return reply.header('content-length', size).send(createReadStream(file));
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(createReadStream(file, range));
      },
    );
  }
};

/**
 * One `Range: bytes=…` of a file of `size` bytes: null for none (or one this does not serve,
 * such as several ranges: then the whole file), 'unsatisfiable' past the end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    // The last n bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
  }
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
