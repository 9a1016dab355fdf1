import { BILLING_MESSAGES, WS_CLOSE } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPaymentsProvider } from '../../providers/payments/index.js';
import { isPro } from '../subscriptions/access.js';
import { createFreeTimeService, realTimers, type FreeTimeService } from './free-time.js';
import { createBillingRepository } from './repository.js';
import { createBillingService, type BillingService } from './service.js';

/**
 * The free tier (`app.freeTime`, `app.billing`): the clock, the ledger and the card. Registered
 * before the rooms, which publish through `observeRoomForFreeTime`; the clock reaches the rooms
 * (to read a participant, to send one away) once they exist.
 */
async function billingPlugin(app: FastifyInstance): Promise<void> {
  const repo = createBillingRepository(app.db.db);
  const { provider } = createPaymentsProvider(app.config.stripe, app.db.db);
  const transport = app.realtime.sockets.transport;
  const reason = 'Free time expired';
  // The clock reports charged minutes to the service, which is made with the clock.
  const later: { billing?: BillingService } = {};
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
        publicMeetingId: room.meeting.meetingId,
      };
    },
    isPro: (userId) => isPro(app.db.db, userId),
    send: (roomId, participantId, message) =>
      transport.publish(roomId, { kind: 'one', participantId }, message),
    async expel(roomId, participantId) {
      transport.close(participantId, WS_CLOSE.freeTimeExpired, reason, {
        type: 'free_time_ended',
        message: BILLING_MESSAGES.endedBody,
      });
      await app.rooms
        .leave({ roomId, participantId }, { code: WS_CLOSE.freeTimeExpired, reason })
        .catch(() => undefined); // already gone
    },
    charged: async (entry) => later.billing?.report(entry),
    log: app.log,
  });
  const billing = (later.billing = createBillingService({
    repo,
    provider,
    freeTime,
    async participantOf(publicId, joinToken) {
      const { room, member } = await app.rooms.participantOf(publicId, joinToken, 'start billing');
      return { roomId: room.id, participantId: member.id };
    },
    isPro: (userId) => isPro(app.db.db, userId),
  }));
  app.decorate('freeTime', freeTime);
  app.decorate('billing', billing);
  app.addHook('preClose', async () => freeTime.shutdown());
}

export default fp(billingPlugin, { name: 'billing', dependencies: ['realtime'] });

declare module 'fastify' {
  interface FastifyInstance {
    freeTime: FreeTimeService;
    billing: BillingService;
  }
}
