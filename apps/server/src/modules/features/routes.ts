import { serverFeaturesSchema, type ServerFeatures } from '@parley/protocol';
import { FEATURE_AVAILABILITY } from '@parley/protocol/constants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sfuStatus } from '../../providers/media/index.js';

/**
 * GET /api/features (issue 37 item 10): what this server does now, for every page that names a
 * feature. Public (the landing page asks before anyone signs in) and cheap: the AI engines'
 * capabilities and whether Janus records here, narrowing what the build ships, and whether
 * this server has its SFU (and why not).
 */
export const featureRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/features',
    { schema: { response: { 200: serverFeaturesSchema } } },
    async (_request, reply) => {
      const ai = await app.ai.service.capabilities();
      const translationLanguages = ai.translation.targets.filter((t) => t.supported).map((t) => t.language);
      const transcription = ai.transcription.engine !== null && ai.transcription.languages.length > 0;
      const features: ServerFeatures['features'] = {
        ...FEATURE_AVAILABILITY,
        transcription: FEATURE_AVAILABILITY.transcription && transcription,
        // Translation means a line can reach a listener in a language other than its own.
        translation:
          FEATURE_AVAILABILITY.translation &&
          transcription &&
          ai.translation.engine !== null &&
          translationLanguages.some((l) => !ai.transcription.languages.every((from) => from === l)),
        recording: FEATURE_AVAILABILITY.recording && app.recordings.canRecordHere(),
      };
      // Engines do not change while the server runs; a page may keep this for a minute.
      reply.header('cache-control', 'public, max-age=60');
      return { features, translationLanguages, sfu: sfuStatus(app.media.provider) };
    },
  );
};
