import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { followRoomForRecording } from './follower.js';
import { NAME_FONT, TOOL_TIMEOUT_MS, missingTools } from './process.js';
import { createRecordingsRepository } from './repository.js';
import { createRecordingsService, type RecordingsService } from './service.js';

/** The job queue's name for post-processing a recording. */
export const RECORDING_QUEUE = 'recording-process';

/**
 * Meeting recording (`app.recordings`): the host's Record / Stop in the room (through the
 * media's SFU), and the post-processing job that makes each recording's one file. It follows the
 * room's events (follower.ts); its files follow the retention job (modules/retention).
 */
async function recordingsPlugin(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'recordings' });
  const { recordings: cfg } = app.config;
  const tools = { ppRec: cfg.ppRecBin, ffmpeg: cfg.ffmpegBin, ffprobe: cfg.ffprobeBin };
  const missing = app.media.canRecord() ? missingTools(tools) : [];
  if (!app.media.canRecord()) log.info('recording: not offered (no Janus with a recordings folder)');
  else if (missing.length > 0)
    log.warn({ missing }, 'recording: not offered (post-processing tools missing)');
  else log.info(`recording: Janus records into ${app.media.recordingDir}`);
  if (app.media.canRecord() && !existsSync(NAME_FONT))
    log.warn(`recording: no names on the tiles (${NAME_FONT} is missing: Debian fonts-dejavu-core)`);

  const service = createRecordingsService({
    repo: createRecordingsRepository(app.db.db),
    media: app.media,
    admitted: (actor) => app.rooms.admitted(actor),
    isPro: (userId) => app.subscriptions.isPro(userId),
    room: (roomId) => app.rooms.room(roomId),
    publish: (roomId, to, message) => app.realtime.sockets.transport.publish(roomId, to, message),
    enqueue: (recordingId, step) => app.jobs.enqueue(RECORDING_QUEUE, [{ recordingId, step }]),
    limits: { maxMs: cfg.maxMs, hostQuotaBytes: cfg.hostQuotaBytes, segmentMs: cfg.segmentMs },
    fontFile: existsSync(NAME_FONT) ? NAME_FONT : null,
    dir: cfg.dir,
    tools,
    missingTools: missing,
    log,
  });
  app.decorate('recordings', service);
  followRoomForRecording(
    app.rooms.events,
    service,
    (roomId, to, message) => app.realtime.sockets.transport.publish(roomId, to, message),
    (err) => log.warn({ err }, 'recording could not follow the room'),
  );

  // One job at a time per instance (ffmpeg takes a core or two while it encodes), each one step
  // of one recording (at most RECORDING_SEGMENT_SECONDS of it), so a long recording does not hold
  // the queue: each step queues the next behind what is waiting. A job that runs past the tools'
  // timeout is expired by the queue (and its tool killed) rather than run twice.
  app.jobs.define<{ recordingId: string; step?: number }>(
    RECORDING_QUEUE,
    {
      retryLimit: 1,
      retryDelay: app.config.jobs.retryDelaySeconds,
      expireInSeconds: Math.ceil((TOOL_TIMEOUT_MS * 2) / 1000),
    },
    async (data, ctx) => service.process(data.recordingId, data.step ?? 0, ctx.lastAttempt),
  );
  app.addHook('onReady', async () => {
    await service.recover().catch((err: unknown) => log.error({ err }, 'could not recover recordings'));
  });
  app.addHook('preClose', async () => {
    await service.stopAll().catch((err: unknown) => log.error({ err }, 'could not stop recordings'));
  });
}

export default fp(recordingsPlugin, { name: 'recordings', dependencies: ['media', 'rooms', 'jobs'] });

declare module 'fastify' {
  interface FastifyInstance {
    recordings: RecordingsService;
  }
}
