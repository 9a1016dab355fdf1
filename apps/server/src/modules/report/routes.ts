import { meetingIdParamsSchema, meetingReportSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser, signedInFirst } from '../auth/guards.js';
import { reportPdf } from './pdf.js';

/**
 * The meeting report (issue 14), for the meeting's owner; anyone else gets 404 as for a meeting
 * that does not exist.
 */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/meetings/:meetingId/report',
    {
      preValidation: signedInFirst,
      schema: { params: meetingIdParamsSchema, response: { 200: meetingReportSchema } },
    },
    async (request) => {
      const meeting = await app.meetingReport.owned(request.params.meetingId, requireUser(request).id);
      return app.meetingReport.report(meeting);
    },
  );

  app.get(
    '/api/meetings/:meetingId/report.pdf',
    { preValidation: signedInFirst, schema: { params: meetingIdParamsSchema } },
    async (request, reply) => {
      const meeting = await app.meetingReport.owned(request.params.meetingId, requireUser(request).id);
      const pdf = await reportPdf(await app.meetingReport.report(meeting));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="meeting-report-${meeting.meetingId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};
