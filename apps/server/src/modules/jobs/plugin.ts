import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJobQueue, type JobQueue } from './queue.js';

/**
 * The job queue (`app.jobs`). Modules define their queues while the app is built; pg-boss starts
 * when the app is ready if its schema already exists (jobs of a previous run may be waiting),
 * otherwise on the first job, so an app that never enqueues never pays for its schema.
 */
async function jobsPlugin(app: FastifyInstance): Promise<void> {
  const jobs = createJobQueue({
    handle: app.db,
    log: app.log,
    pollingSeconds: app.config.jobs.pollingSeconds,
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => {
    void jobs
      .installed()
      .then((installed) => (installed ? jobs.start() : undefined))
      .catch((err: unknown) => app.log.error({ err }, 'job queue start failed'));
  });
  app.addHook('onClose', async () => jobs.stop());
}

export default fp(jobsPlugin, { name: 'jobs' });

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobQueue;
  }
}
