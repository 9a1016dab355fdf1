import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeApi,
  FakeApiError,
  type FakeRequest,
  requireBearer,
  startFakeApi,
} from '../../../test/fake-openai.js';
import { OpenAiSpeechToText } from './openai.js';
import { requireCommand, silence, speak, wavPcm } from './testing/audio.js';
import type { Utterance } from './types.js';

const KEY = 'sk-test-0123456789abcdef';
const PATH = 'POST /v1/audio/transcriptions';
let dir: string;
let api: FakeApi | null = null;

/** Validates the request as OpenAI does: a WAV file part, a model, and our key. */
async function checkedAudio(req: FakeRequest): Promise<Blob> {
  requireBearer(req, KEY);
  const file = req.form?.get('file');
  if (!(file instanceof Blob)) throw new FakeApiError(400, "'file' is a required property");
  if (!req.form?.get('model')) throw new FakeApiError(400, "'model' is a required property");
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new FakeApiError(400, 'Invalid file format.');
  }
  return file;
}

beforeAll(() => {
  requireCommand('flite', 'flite');
  requireCommand('ffmpeg', 'ffmpeg', ['-version']);
  dir = mkdtempSync(path.join(os.tmpdir(), 'parley-openai-stt-'));
});

afterEach(async () => {
  await api?.close();
  api = null;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('OpenAI-compatible speech-to-text', () => {
  it('posts the clip as multipart WAV with the model and key, and maps the answer', async () => {
    api = await startFakeApi({
      [PATH]: async (req) => {
        await checkedAudio(req);
        return { json: { text: '  Hello there, team.  ', language: 'english', duration: 1.2, segments: [] } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: KEY, model: 'whisper-1' });
    const wav = readFileSync(speak(dir, 'hello', 'Hello there, team.'));

    await expect(stt.transcribeClip(wav)).resolves.toEqual({ text: 'Hello there, team.', language: 'en' });

    const req = api.requests[0]!;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    const file = req.form!.get('file') as File;
    expect(file.type).toBe('audio/wav');
    expect(file.name).toBe('audio.wav');
    // 16 kHz mono 16-bit: the header says so, and the samples are the clip's.
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.readUInt32LE(24)).toBe(16_000);
    expect(bytes.readUInt16LE(22)).toBe(1);
    expect(Math.abs(bytes.length - 44 - wavPcm(path.join(dir, 'hello.wav')).length)).toBeLessThan(3_200);
    expect(req.form!.get('model')).toBe('whisper-1');
    expect(req.form!.get('response_format')).toBe('verbose_json');
    expect(req.form!.get('language')).toBeNull();
  });

  it('passes a known language on, and keeps it when the API does not say', async () => {
    api = await startFakeApi({
      [PATH]: async (req) => {
        await checkedAudio(req);
        return { json: { text: 'Hola a todos.' } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: KEY, model: 'whisper-1' });
    const result = await stt.transcribeClip(readFileSync(speak(dir, 'hola', 'Hola')), { language: 'es' });
    expect(result).toEqual({ text: 'Hola a todos.', language: 'es' });
    expect(api.requests[0]!.form!.get('language')).toBe('es');
  });

  it('reports a refused key clearly, without the key', async () => {
    const wrong = 'sk-wrong-key-5555';
    api = await startFakeApi({
      [PATH]: (req) => {
        try {
          requireBearer(req, KEY);
        } catch {
          throw new FakeApiError(401, `Incorrect API key provided: ${wrong}`);
        }
        return { json: { text: 'never' } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: wrong, model: 'whisper-1' });
    const failure = stt.transcribeClip(readFileSync(speak(dir, 'key', 'Hello')));
    await expect(failure).rejects.toThrow(/refused the API key \(check AI_API_KEY\): HTTP 401/);
    await expect(failure).rejects.not.toThrow(wrong);
  });

  it('gives up on an API that does not answer in time', async () => {
    api = await startFakeApi({
      [PATH]: async () => {
        await new Promise((r) => setTimeout(r, 2_000));
        return { json: { text: 'late' } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: KEY, model: 'm', timeoutMs: 300 });
    await expect(stt.transcribeClip(readFileSync(speak(dir, 'slow', 'Hello')))).rejects.toThrow(
      /did not answer within 300 ms/,
    );
  });

  it('cuts a live stream into utterances at silence and transcribes each in order', async () => {
    const answers = ['First sentence.', 'Second sentence.'];
    api = await startFakeApi({
      [PATH]: async (req) => {
        await checkedAudio(req);
        return { json: { text: answers.shift() ?? '', language: 'english' } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: KEY, model: 'whisper-1' });
    const one = wavPcm(speak(dir, 'one', 'We closed twelve new accounts last month.'));
    const two = wavPcm(speak(dir, 'two', 'Let us meet again on Tuesday.'));
    const audio = Buffer.concat([one, silence(1500), two, silence(1000)]);
    const got: Utterance[] = [];
    const errors: Error[] = [];
    const stream = stt.openStream({ onUtterance: (u) => got.push(u), onError: (e) => errors.push(e) });
    for (let at = 0; at < audio.length; at += 640) stream.write(audio.subarray(at, at + 640));
    await stream.close();

    expect(errors).toEqual([]);
    expect(got.map((u) => [u.text, u.language])).toEqual([
      ['First sentence.', 'en'],
      ['Second sentence.', 'en'],
    ]);
    const oneMs = one.length / 32;
    expect(got[0]!.endMs).toBeLessThanOrEqual(oneMs + 100);
    expect(got[1]!.startMs).toBeGreaterThanOrEqual(oneMs + 1000);
    expect(api.requests).toHaveLength(2);
  });

  it('reports a failing utterance through onError and goes on with the next', async () => {
    let calls = 0;
    api = await startFakeApi({
      [PATH]: () => {
        calls += 1;
        if (calls === 1) throw new FakeApiError(500, 'The server had an error');
        return { json: { text: 'Still here.', language: 'english' } };
      },
    });
    const stt = new OpenAiSpeechToText({ baseUrl: `${api.url}/v1`, apiKey: KEY, model: 'whisper-1' });
    const one = wavPcm(speak(dir, 'e1', 'First one.'));
    const got: string[] = [];
    const errors: string[] = [];
    const stream = stt.openStream({
      onUtterance: (u) => got.push(u.text),
      onError: (e) => errors.push(e.message),
    });
    stream.write(Buffer.concat([one, silence(1000), one, silence(1000)]));
    await stream.close();
    expect(errors).toEqual([expect.stringMatching(/failed: HTTP 500 The server had an error/)]);
    expect(got).toEqual(['Still here.']);
  });
});
