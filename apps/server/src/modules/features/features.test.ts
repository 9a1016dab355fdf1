import { serverFeaturesSchema } from '@parley/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';

/**
 * Issue 37 item 10: GET /api/features says what THIS server does, so no page promises an engine
 * or Janus the server lacks.
 */
describe('GET /api/features', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const features = async (ctx: TestContext) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/features' });
    expect(res.statusCode).toBe(200);
    return serverFeaturesSchema.parse(res.json());
  };

  it('answers anyone, and agrees with the running engines and media', async () => {
    t = await createTestApp();
    const f = await features(t);
    const ai = (await t.app.inject({ method: 'GET', url: '/api/ai/capabilities' })).json<{
      transcription: { engine: string | null };
      translation: { targets: { language: string; supported: boolean }[] };
    }>();
    expect(f.features.transcription).toBe(ai.transcription.engine !== null);
    expect(f.translationLanguages).toEqual(
      ai.translation.targets.filter((x) => x.supported).map((x) => x.language),
    );
    // No Janus in the API suites: this server cannot record, and says so.
    expect(f.features.recording).toBe(false);
    expect(f.features.whiteboard).toBe(true);
    expect(f.sfu).toEqual({ state: 'off', reason: 'peer-to-peer only (MEDIA_PROVIDER=p2p)' });
  });

  it('a server without speech or translation promises neither', async () => {
    t = await createTestApp({ AI_STT_PROVIDER: 'off', AI_TRANSLATION_PROVIDER: 'off' });
    const f = await features(t);
    expect(f.features).toMatchObject({ transcription: false, translation: false, summaries: true });
    expect(f.translationLanguages).toEqual([]);
  });

  it('a server that transcribes but translates nowhere offers only what it speaks', async () => {
    t = await createTestApp({ AI_TRANSLATION_PROVIDER: 'off' });
    const f = await features(t);
    // The embedded speech engine (scripts/install-system-deps.sh) still runs.
    expect(f.features.transcription).toBe(true);
    expect(f.features.translation).toBe(false);
    expect(f.translationLanguages.length).toBeGreaterThan(0);
  });
});
