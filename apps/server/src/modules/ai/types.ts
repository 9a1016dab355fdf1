import type { SpeechToText } from '../../providers/speech/types.js';
import type { Summarizer } from '../../providers/summaries/types.js';
import type { Translator } from '../../providers/translation/types.js';

/**
 * The three AI engines the configuration chose (config.ai): speech-to-text and translation may be
 * off (configured off, or the embedded engine's Debian packages are missing), each with the reason
 * the server states at start-up; summaries always have an engine (the embedded one needs no
 * package). The same factory serves the server and `npm run ai`.
 */
export interface AiEngines {
  stt: SpeechToText | null;
  /** Why speech-to-text is off (null while it is on). */
  sttOff: string | null;
  translator: Translator | null;
  translatorOff: string | null;
  summarizer: Summarizer;
}
