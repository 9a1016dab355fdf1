import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { createApertiumTranslator } from './apertium.js';
import { LibreTranslateTranslator } from './libretranslate.js';
import { OpenAiTranslator } from './openai.js';
import type { Translator } from './types.js';

export { type Translator, UnsupportedLanguageError } from './types.js';

/** What the providers log through: the server's logger, or the CLI's stderr one. */
export type AiLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

/**
 * The translator the configuration chose (config.ai.translation), or null with a reason a person
 * can act on: translation configured off, or the embedded engine's Debian packages missing.
 */
export function createTranslator(
  ai: Config['ai'],
  log: AiLog,
): { translator: Translator | null; reason?: string } {
  switch (ai.translation) {
    case 'off':
      return { translator: null, reason: 'AI_TRANSLATION_PROVIDER is off' };
    case 'embedded': {
      const result = createApertiumTranslator();
      if (!result.translator)
        return { translator: null, reason: `the embedded translator is unavailable: ${result.reason}` };
      log.info(
        { languages: result.translator.targets('es') },
        'apertium translation (pipelines start on first use)',
      );
      return { translator: result.translator };
    }
    case 'openai': {
      const { baseUrl, apiKey, translationModel } = ai.openai;
      if (!baseUrl) return { translator: null, reason: 'AI_TRANSLATION_PROVIDER=openai needs AI_BASE_URL' };
      return { translator: new OpenAiTranslator({ baseUrl, apiKey, model: translationModel }) };
    }
    case 'libretranslate': {
      const { url, apiKey } = ai.libreTranslate;
      if (!url)
        return {
          translator: null,
          reason: 'AI_TRANSLATION_PROVIDER=libretranslate needs LIBRETRANSLATE_URL',
        };
      const translator = new LibreTranslateTranslator({ url, apiKey });
      // Ask for its languages now, so the picker is right by the time someone opens it.
      translator.ready().then(
        () => log.info({ targets: translator.targets('en') }, 'LibreTranslate languages loaded'),
        (err: unknown) =>
          log.warn(
            `LibreTranslate languages not loaded yet (retried on first use): ${err instanceof Error ? err.message : String(err)}`,
          ),
      );
      return { translator };
    }
  }
}
