import { BILLING_MESSAGES, WS_CLOSE } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { followRoomForFreeTime } from './follower.js';
import { createFreeTimeService, realTimers, type FreeTimeService } from './free-time.js';
import { createBillingRepository } from './repository.js';
import { createBillingService, type BillingService } from './service.js';

/** The queue of overage minutes to report to the payments provider. */
export const USAGE_REPORT_QUEUE = 'usage-report';
type UsageReport = Parameters<BillingService['report']>[0];

/**
 * The free tier (`app.freeTime`, `app.billing`): the clock, the ledger and the card. The clock
 * follows the room's events (follower.ts) and reaches the rooms to read a participant and to
 * send one away.
 */
async function billingPlugin(app: FastifyInstance): Promise<void> {
  const repo = createBillingRepository(app.db.db);
  const { provider } = app.payments;
  const transport = app.realtime.sockets.transport;
  const reason = 'Free time expired';
  const freeTime: FreeTimeService = createFreeTimeService({
    repo,
    rules: app.config.freeTier,
    timers: realTimers,
    async participant(roomId, participantId) {
      const room = await app.rooms.room(roomId);
      const member = room?.members.get(participantId);
      if (!room || !member || room.meeting.ephemeral) return null;
      return {
        userId: member.userId,
        email: member.email,
        sessionKey: member.sessionKey,
        browserId: member.browserId ?? null,
        browserKey: member.browserKey ?? null,
        clientAddress: member.clientAddress ?? null,
        publicMeetingId: room.meeting.meetingId,
        hostId: room.meeting.hostId,
        name: member.name,
      };
    },
    isPro: (userId) => app.subscriptions.isPro(userId),
    send: (roomId, participantId, message) =>
      transport.publish(roomId, { kind: 'one', participantId }, message),
    tellHosts: (roomId, message) => transport.publish(roomId, { kind: 'hosts' }, message),
    async expel(roomId, participantId) {
      transport.close(participantId, WS_CLOSE.freeTimeExpired, reason, {
        type: 'free_time_ended',
        message: BILLING_MESSAGES.endedBody,
      });
      await app.rooms
        .leave({ roomId, participantId }, { code: WS_CLOSE.freeTimeExpired, reason })
        .catch(() => undefined); // already gone
    },
    // Reported by the job queue, retried with back-off until the provider accepts it; the
    // provider's idempotency key (the ledger id) keeps a retried report from charging twice.
    charged: (entry) => app.jobs.enqueue(USAGE_REPORT_QUEUE, [entry]),
    log: app.log,
  });
  const billing = createBillingService({
    repo,
    provider,
    freeTime,
    async participantOf(publicId, joinToken) {
      const { room, member } = await app.rooms.participantOf(publicId, joinToken, 'start billing');
      return { roomId: room.id, participantId: member.id };
    },
    isPro: (userId) => app.subscriptions.isPro(userId),
  });
  app.jobs.define<UsageReport>(
    USAGE_REPORT_QUEUE,
    { retryLimit: 30, retryDelay: app.config.jobs.retryDelaySeconds, concurrency: 5 },
    (entry) => app.billing.report(entry),
  );
  followRoomForFreeTime(app.rooms.events, freeTime);
  app.decorate('freeTime', freeTime);
  app.decorate('billing', billing);
  app.addHook('preClose', async () => freeTime.shutdown());
}

export default fp(billingPlugin, {
  name: 'billing',
  dependencies: ['realtime', 'jobs', 'payments', 'subscriptions', 'rooms'],
});

declare module 'fastify' {
  interface FastifyInstance {
    freeTime: FreeTimeService;
    billing: BillingService;
  }
}
