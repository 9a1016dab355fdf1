import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { createSpeechToText } from './index.js';

const log = { info: () => undefined };

function ai(
  overrides: Partial<Config['ai']> = {},
  openai: Partial<Config['ai']['openai']> = {},
): Config['ai'] {
  return {
    stt: 'embedded',
    translation: 'embedded',
    summaries: 'embedded',
    clipMaxMs: 600_000,
    openai: {
      baseUrl: undefined,
      apiKey: undefined,
      sttModel: 'whisper-1',
      translationModel: 'm',
      summaryModel: 'm',
      ...openai,
    },
    libreTranslate: { url: undefined, apiKey: undefined },
    ...overrides,
  };
}

describe('createSpeechToText', () => {
  it('is off, with the reason, when the configuration says so', () => {
    expect(createSpeechToText(ai({ stt: 'off' }), log)).toEqual({ stt: null, reason: 'AI_STT_PROVIDER=off' });
  });

  it('needs a base URL for the OpenAI-compatible API', () => {
    const choice = createSpeechToText(ai({ stt: 'openai' }), log);
    expect(choice.stt).toBeNull();
    expect(choice.reason).toMatch(/AI_BASE_URL/);
  });

  it('uses the OpenAI-compatible API when configured', async () => {
    const choice = createSpeechToText(ai({ stt: 'openai' }, { baseUrl: 'http://127.0.0.1:9/v1' }), log);
    expect(choice.stt?.name).toBe('openai-compatible');
    expect(choice.stt?.languages).toBe('any');
    await choice.stt?.close();
  });

  it('names the Debian package when the embedded model is missing', () => {
    const choice = createSpeechToText(ai(), log, { modelDir: '/nonexistent/model' });
    expect(choice.stt).toBeNull();
    expect(choice.reason).toMatch(/pocketsphinx-en-us/);
  });

  it('uses the embedded pocketsphinx by default (English only)', async () => {
    const choice = createSpeechToText(ai(), log);
    expect(choice.reason).toBeUndefined();
    expect(choice.stt?.name).toBe('pocketsphinx');
    expect(choice.stt?.languages).toEqual(['en']);
    await choice.stt?.close();
  });
});
