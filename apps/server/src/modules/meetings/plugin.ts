import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMeetingsRepository } from './repository.js';
import { createMeetingsService, type MeetingsService } from './service.js';

export interface MeetingsPluginOptions {
  /** Invitation e-mails one user may send per UTC day (tests may change it). */
  dailyRecipientLimit?: number;
}

/**
 * Meetings (`app.meetings`): create, schedule, edit, delete, invitations. A deleted meeting's
 * room ends at once (its sockets are closed with 4005), and its stored files and recordings go.
 */
async function meetingsPlugin(app: FastifyInstance, options: MeetingsPluginOptions): Promise<void> {
  const meetings = createMeetingsService({
    dailyRecipientLimit: options.dailyRecipientLimit,
    repo: createMeetingsRepository(app.db.db),
    mailer: app.mailer,
    mailFailures: (meetingId) => app.mailFailures.forMeeting(meetingId),
    publicUrl: app.config.publicUrl,
    log: app.log,
    onDeleted: async (meetingId) => {
      await app.rooms.end(meetingId);
      await app.files.removeMeetingFiles(meetingId).catch((err: unknown) => {
        app.log.error({ err, meetingId }, 'could not remove the files of a deleted meeting');
      });
      await app.recordings.meetingDeleted(meetingId).catch((err: unknown) => {
        app.log.error({ err, meetingId }, 'could not remove the recordings of a deleted meeting');
      });
    },
  });
  app.decorate('meetings', meetings);
}

export default fp(meetingsPlugin, {
  name: 'meetings',
  dependencies: ['mail', 'rooms', 'files', 'recordings'],
});

declare module 'fastify' {
  interface FastifyInstance {
    meetings: MeetingsService;
  }
}
