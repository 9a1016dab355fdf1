import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  chatMessages,
  meetingAttendance,
  meetingCollaboration,
  meetingFiles,
  meetingSummaries,
  recordings,
  transcriptLines,
} from '../../db/schema/index.js';
import { createAiRepository } from '../ai/repository.js';
import { createRetentionJob, type RetentionJob } from './job.js';
import { createRetentionRepository } from './repository.js';

/** The job queue's name for a retention run. */
export const RETENTION_QUEUE = 'retention';
/** How often the job runs, and how long after start-up the first run waits. */
const EVERY_MS = 60 * 60_000;
const FIRST_RUN_MS = 60_000;

/**
 * The retention job (`app.retention`), run hourly as a job of the queue: chat first (its rows
 * point at files), then files (bytes and rows), transcripts, summaries, recordings, the notes and
 * whiteboard, and attendance: every artefact of a meeting. Every instance may run it; deleting
 * twice is harmless.
 */
async function retentionPlugin(app: FastifyInstance): Promise<void> {
  const repo = createRetentionRepository(app.db.db);
  const ai = createAiRepository(app.db.db);
  const job = createRetentionJob({
    repo,
    log: app.log,
    kinds: [
      { name: 'chat', meetingId: chatMessages.meetingId, purge: (id) => repo.deleteChat(id) },
      { name: 'files', meetingId: meetingFiles.meetingId, purge: (id) => app.files.purgeMeetingFiles(id) },
      { name: 'transcripts', meetingId: transcriptLines.meetingId, purge: (id) => ai.deleteTranscript(id) },
      { name: 'summaries', meetingId: meetingSummaries.meetingId, purge: (id) => ai.deleteSummary(id) },
      // Rows and files (the finished file and any raw streams left); recordings and collaboration
      // register later (their purge is looked up when a run calls it).
      { name: 'recordings', meetingId: recordings.meetingId, purge: (id) => app.recordings.purgeMeeting(id) },
      {
        name: 'notes and whiteboard',
        meetingId: meetingCollaboration.meetingId,
        purge: (id) => app.collaboration.purge(id),
      },
      {
        name: 'attendance',
        meetingId: meetingAttendance.meetingId,
        purge: (id) => repo.deleteAttendance(id),
      },
    ],
  });
  app.decorate('retention', job);

  // The run is a queue job: a failed run (database away) is retried with back-off, and the
  // timer only adds the job.
  app.jobs.define(
    RETENTION_QUEUE,
    { retryLimit: 5, retryDelay: app.config.jobs.retryDelaySeconds },
    async () => {
      await app.retention.runOnce(new Date());
    },
  );
  const tick = () => {
    app.jobs
      .enqueue(RETENTION_QUEUE, [{ at: new Date().toISOString() }])
      .catch((err: unknown) => app.log.error({ err }, 'could not queue the retention run'));
  };
  const first = setTimeout(tick, FIRST_RUN_MS);
  const every = setInterval(tick, EVERY_MS);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}

export default fp(retentionPlugin, { name: 'retention', dependencies: ['files', 'jobs'] });

declare module 'fastify' {
  interface FastifyInstance {
    retention: RetentionJob;
  }
}
