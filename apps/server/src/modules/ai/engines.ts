import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import { createSpeechToText } from '../../providers/speech/index.js';
import { createSummarizer } from '../../providers/summaries/index.js';
import { createTranslator } from '../../providers/translation/index.js';
import type { AiEngines } from './types.js';

export type { AiEngines } from './types.js';

export function createAiEngines(ai: Config['ai'], log: FastifyBaseLogger): AiEngines {
  const speech = createSpeechToText(ai, log);
  const translation = createTranslator(ai, log);
  return {
    stt: speech.stt,
    sttOff: speech.stt ? null : (speech.reason ?? 'off'),
    translator: translation.translator,
    translatorOff: translation.translator ? null : (translation.reason ?? 'off'),
    summarizer: createSummarizer(ai, log),
  };
}

export async function closeAiEngines(engines: AiEngines): Promise<void> {
  await Promise.allSettled([engines.stt?.close(), engines.translator?.close(), engines.summarizer.close?.()]);
}

/**
 * `app.aiEngines`: the engines of the configuration, or those a test passes in (`buildApp`'s
 * `ai`). What is off, and why, is said once at start-up.
 */
async function aiEnginesPlugin(
  app: FastifyInstance,
  options: { engines?: Partial<AiEngines> },
): Promise<void> {
  const given = options.engines;
  const engines: AiEngines =
    given && 'summarizer' in given && given.summarizer
      ? {
          stt: given.stt ?? null,
          sttOff: given.stt ? null : (given.sttOff ?? 'not given to this app'),
          translator: given.translator ?? null,
          translatorOff: given.translator ? null : (given.translatorOff ?? 'not given to this app'),
          summarizer: given.summarizer,
        }
      : { ...createAiEngines(app.config.ai, app.log), ...given };
  if (engines.sttOff) app.log.warn(`Live transcription is off: ${engines.sttOff}`);
  if (engines.translatorOff) app.log.warn(`Live translation is off: ${engines.translatorOff}`);
  app.log.info(
    {
      speechToText: engines.stt?.name ?? null,
      translation: engines.translator?.name ?? null,
      summaries: engines.summarizer.name,
    },
    'AI engines',
  );
  app.decorate('aiEngines', engines);
  app.addHook('onClose', async () => closeAiEngines(engines));
}

export default fp(aiEnginesPlugin, { name: 'ai-engines' });

declare module 'fastify' {
  interface FastifyInstance {
    aiEngines: AiEngines;
  }
}
