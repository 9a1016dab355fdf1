import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createAttendanceService, type AttendanceService } from './attendance.js';
import { followRoomForAttendance } from './follower.js';
import { createReportRepository } from './repository.js';
import { createReportService, type ReportService } from './service.js';

export interface ReportPluginOptions {
  /** The attendance clock (ms since the epoch); tests script a meeting's timeline with it. */
  now?: () => number;
}

/**
 * Attendance and talk time (`app.attendance`, following the room's events: follower.ts) and the
 * meeting report (`app.meetingReport`, with the host's saved summary from the AI module).
 */
async function reportPlugin(app: FastifyInstance, opts: ReportPluginOptions): Promise<void> {
  const repo = createReportRepository(app.db.db);
  const attendance = createAttendanceService({ repo, now: opts.now ?? Date.now, log: app.log });
  const report = createReportService({
    repo,
    attendance,
    savedSummary: (meeting) => app.ai.service.savedSummary(meeting),
  });
  followRoomForAttendance(app.rooms.events, attendance);
  app.decorate('attendance', attendance);
  app.decorate('meetingReport', report);
  // Whoever is still in when the server stops leaves now (before the database closes).
  app.addHook('preClose', async () => attendance.closeAll());
}

export default fp(reportPlugin, { name: 'report', dependencies: ['rooms', 'ai'] });

declare module 'fastify' {
  interface FastifyInstance {
    attendance: AttendanceService;
    meetingReport: ReportService;
  }
}
