import { TRANSCRIPTS_KEPT } from '@parley/protocol/constants';
import type { LiveTranscript } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { RoomState } from '../rooms/state.js';
import fp from 'fastify-plugin';
import { createMemoryClipClaims, createSharedClipClaims } from './clip-claims.js';
import { createMemoryCooldown, createSharedCooldown, type SummaryCooldown } from './cooldown.js';
import { createLiveCaptions, type LiveCaptions } from './live.js';
import { createAiRepository } from './repository.js';
import { createAiService, type AiService } from './service.js';

/**
 * The Pro plan's AI (`app.ai`): live captions for the room's sockets, and the service behind the
 * AI routes, over the engines of `app.aiEngines`.
 */
async function aiPlugin(app: FastifyInstance): Promise<void> {
  const repo = createAiRepository(app.db.db);
  const captions = createLiveCaptions({
    rooms: app.rooms,
    transport: app.realtime.sockets.transport,
    engines: app.aiEngines,
    repo,
    log: app.log,
    onSpeechLatency: (seconds) => app.metrics.speechLatency(seconds),
  });
  const cooldown = app.sharedState ? createSharedCooldown(app.sharedState) : createMemoryCooldown();
  const clipClaims = app.sharedState ? createSharedClipClaims(app.sharedState) : createMemoryClipClaims();
  const service = createAiService({
    repo,
    engines: app.aiEngines,
    rooms: app.rooms,
    log: app.log,
    cooldown,
    clipClaims,
    clipMaxMs: app.config.ai.clipMaxMs,
  });
  /** What `joined` shows of the captions so far: the last lines, untranslated (none in the test room). */
  const recentTranscripts = async (room: RoomState): Promise<LiveTranscript[]> => {
    if (room.meeting.ephemeral) return [];
    const rows = await repo.recentLines(room.id, TRANSCRIPTS_KEPT);
    return rows.map((r) => ({
      id: r.id,
      speakerName: r.speakerName,
      originalText: r.text,
      translatedText: null,
      timestamp: r.startedAt.toISOString(),
      language: r.language,
      participantId: r.participantId,
      translationLanguage: null,
      translationError: null,
      ...(r.kind === 'notice' ? { kind: 'notice' as const } : {}),
    }));
  };
  app.rooms.provideTranscripts(recentTranscripts);
  app.decorate('ai', { captions, service, recentTranscripts, cooldown });
  // Before the engines close (onClose): the last words of open streams are still delivered.
  app.addHook('preClose', async () => captions.close());
}

export default fp(aiPlugin, {
  name: 'ai',
  dependencies: ['ai-engines', 'bus', 'rooms', 'realtime', 'metrics'],
});

declare module 'fastify' {
  interface FastifyInstance {
    ai: {
      captions: LiveCaptions;
      service: AiService;
      recentTranscripts(room: RoomState): Promise<LiveTranscript[]>;
      /** The summaries' cooldowns (tests release them instead of waiting 30 s). */
      cooldown: SummaryCooldown;
    };
  }
}
