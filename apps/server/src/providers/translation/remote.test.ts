import { afterEach, describe, expect, it } from 'vitest';
import { type FakeApi, FakeApiError, requireBearer, startFakeApi } from '../../../test/fake-openai.js';
import { LibreTranslateTranslator } from './libretranslate.js';
import { OpenAiTranslator } from './openai.js';
import { AiProviderError } from './openai-chat.js';
import { UnsupportedLanguageError } from './types.js';

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

/** A recorded chat completion answer (OpenAI's shape). */
function completion(content: string | null) {
  return {
    json: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

describe('OpenAI-compatible translation', () => {
  it('sends a chat completion with a strict instruction and the bearer key, and returns the text', async () => {
    api = await startFakeApi({
      'POST /v1/chat/completions': (req) => {
        requireBearer(req, 'sk-test');
        const body = req.json as { model: string; messages: Array<{ role: string; content: string }> };
        if (typeof body.model !== 'string' || !Array.isArray(body.messages))
          throw new FakeApiError(400, 'bad body');
        return completion('  Hola, ¿puedes revisar mi PR?\n');
      },
    });
    const t = new OpenAiTranslator({ baseUrl: `${api.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
    await expect(t.translate('Hi, can you review my PR?', 'en', 'es')).resolves.toBe(
      'Hola, ¿puedes revisar mi PR?',
    );

    const body = api.requests[0]!.json as {
      model: string;
      temperature: number;
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.temperature).toBe(0);
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toMatch(/from English to Spanish/);
    expect(body.messages[0]!.content).toMatch(/Output only the Spanish translation/);
    expect(body.messages[1]).toEqual({ role: 'user', content: 'Hi, can you review my PR?' });
  });

  it('serves all twelve spec languages and refuses others', async () => {
    const t = new OpenAiTranslator({ baseUrl: 'http://127.0.0.1:9', apiKey: undefined, model: 'm' });
    expect(t.targets('ja')).toHaveLength(12);
    expect(t.supports('en', 'hi')).toBe(true);
    await expect(t.translate('x', 'en', 'xx')).rejects.toBeInstanceOf(UnsupportedLanguageError);
  });

  it('reports a refused key and an empty answer clearly', async () => {
    api = await startFakeApi({
      'POST /v1/chat/completions': (req) => {
        requireBearer(req, 'right');
        return completion(null);
      },
    });
    const wrong = new OpenAiTranslator({ baseUrl: `${api.url}/v1`, apiKey: 'wrong', model: 'm' });
    await expect(wrong.translate('Hi', 'en', 'fr')).rejects.toThrow(
      /answered 401: Incorrect API key provided/,
    );
    const right = new OpenAiTranslator({ baseUrl: `${api.url}/v1`, apiKey: 'right', model: 'm' });
    await expect(right.translate('Hi', 'en', 'fr')).rejects.toThrow(AiProviderError);
    await expect(right.translate('Hi', 'en', 'fr')).rejects.toThrow(/no content/);
  });
});

describe('LibreTranslate', () => {
  const languages = [
    { code: 'en', name: 'English', targets: ['en', 'es', 'de', 'zh-Hans'] },
    { code: 'es', name: 'Spanish', targets: ['en', 'es'] },
    { code: 'de', name: 'German', targets: ['en', 'de'] },
    { code: 'zh-Hans', name: 'Chinese', targets: ['en', 'zh-Hans'] },
  ];

  it('asks for the languages once and posts {q, source, target, format, api_key}', async () => {
    api = await startFakeApi({
      'GET /languages': () => ({ json: languages }),
      'POST /translate': (req) => {
        const body = req.json as Record<string, unknown>;
        if (body.api_key !== 'lt-key') throw new FakeApiError(403, 'Invalid API key');
        if (body.format !== 'text') throw new FakeApiError(400, 'format');
        return { json: { translatedText: body.target === 'zh-Hans' ? '你好' : 'Hola' } };
      },
    });
    const t = new LibreTranslateTranslator({ url: api.url, apiKey: 'lt-key' });
    expect(t.supports('en', 'es')).toBe(false); // not known before the server said so
    await t.ready();
    expect(t.targets('en')).toEqual(['en', 'es', 'de', 'zh']);
    expect(t.targets('es')).toEqual(['en', 'es']);
    expect(t.supports('es', 'de')).toBe(false);

    await expect(t.translate('Hello', 'en', 'es')).resolves.toBe('Hola');
    await expect(t.translate('Hello', 'en', 'zh')).resolves.toBe('你好');
    await expect(t.translate('Hola', 'es', 'de')).rejects.toBeInstanceOf(UnsupportedLanguageError);

    const posts = api.requests.filter((r) => r.path === '/translate');
    expect(posts.map((r) => r.json)).toEqual([
      { q: 'Hello', source: 'en', target: 'es', format: 'text', api_key: 'lt-key' },
      { q: 'Hello', source: 'en', target: 'zh-Hans', format: 'text', api_key: 'lt-key' },
    ]);
    expect(api.requests.filter((r) => r.path === '/languages')).toHaveLength(1);
  });

  it('reports the server error message', async () => {
    api = await startFakeApi({
      'GET /languages': () => ({ json: languages }),
      'POST /translate': () => {
        throw new FakeApiError(403, 'Invalid API key');
      },
    });
    const t = new LibreTranslateTranslator({ url: api.url, apiKey: undefined });
    await expect(t.translate('Hello', 'en', 'es')).rejects.toThrow(/answered 403: Invalid API key/);
  });
});
