import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startMedia } from '../../providers/media/index.js';
import { MESH_MAX_PARTICIPANTS, createMediaService, type MediaService } from './service.js';

/**
 * Meetings' media (`app.media`): starts the provider the configuration asks for — our own
 * supervised Janus when it is installed, an external one at JANUS_URL, or peer-to-peer only — and
 * says at start-up which one it is. It follows the room's events (follower.ts, registered after
 * the rooms), and the sfu_* WebSocket handlers act through the MediaService.
 */
async function mediaPlugin(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'media' });
  let service: MediaService | null = null;
  const started = await startMedia(app.config.media, log, {
    onOffer: (roomId, participantId, offerId, offer, streams) =>
      app.realtime.sockets.transport.publish(
        roomId,
        { kind: 'one', participantId },
        { type: 'sfu_offer', offerId, offer, streams },
      ),
    onActiveSpeaker: (roomId, participantId) => {
      app.realtime.sockets.transport.publish(
        roomId,
        { kind: 'all' },
        { type: 'active_speaker', participantId },
      );
      // A recording keeps the changes (its speaker view).
      service?.speakerChanged(roomId, participantId);
    },
    onLost: () => service?.lost(),
    onRecovered: () =>
      void service
        ?.recovered()
        .catch((err: unknown) => log.error({ err }, 'could not restart meetings on janus')),
  });
  if (started.provider.kind === 'janus') log.info(`media: ${started.summary}`);
  else if (app.config.media.provider === 'p2p') log.info(`media: ${started.summary}`);
  else log.warn(`media: ${started.summary}`);
  service = createMediaService({
    provider: started.provider,
    // No Janus where one was wanted: meetings stay peer-to-peer, capped. MEDIA_PROVIDER=p2p is the
    // operator's (or the tests') choice of a mesh without a cap.
    meshCap: app.config.media.provider === 'p2p' ? null : MESH_MAX_PARTICIPANTS,
    ice: app.config.ice,
    // The rooms plugin registers after this one (it reads the mesh cap and the ICE servers).
    admitted: (actor) => app.rooms.admitted(actor),
    inRoom: (roomId, exceptId) => app.rooms.inRoom(roomId, exceptId),
    publish: (roomId, to, message) => app.realtime.sockets.transport.publish(roomId, to, message),
    log,
  });
  app.decorate('media', service);
  app.addHook('onClose', async () => {
    await started.provider
      .close()
      .catch((err: unknown) => log.warn({ err }, 'could not close the media provider'));
    await started.supervisor?.stop();
  });
}

export default fp(mediaPlugin, { name: 'media', dependencies: ['realtime'] });

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}
