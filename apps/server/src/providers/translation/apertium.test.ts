import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APERTIUM_MODES_DIR, type ApertiumTranslator, createApertiumTranslator } from './apertium.js';
import { fromApertium, toApertium } from './apertium-format.js';
import { ApertiumPipeline } from './apertium-pipeline.js';
import { UnsupportedLanguageError } from './types.js';

const installed = existsSync(`${APERTIUM_MODES_DIR}/eng-spa.mode`);

describe('apertium stream format', () => {
  it('escapes reserved characters and ends the line with the blanks destxt would add', () => {
    expect(toApertium('a [b] ^c$ 1/2 @x <y> {z} *#+ \\')).toBe(
      'a \\[b\\] \\^c\\$ 1\\/2 \\@x \\<y\\> \\{z\\} \\*\\#\\+ \\\\[][\n]',
    );
    expect(toApertium('~5 min')).toBe('[~]5 min[][\n]');
    expect(toApertium('one\ntwo\0')).toBe('one two[][\n]');
  });

  it('undoes escapes, keeps superblank contents and drops the final blanks', () => {
    expect(fromApertium(' Un \\[b\\]  [~]5 \\^c\\$[][\n]')).toBe('Un [b] ~5 ^c$');
  });
});

describe('apertium pipeline process', () => {
  it('answers each request with what came back before the next NUL (cat as the pipeline)', async () => {
    const p = new ApertiumPipeline('cat', 'cat', { timeoutMs: 5000 });
    const answers = await Promise.all(['one', 'two [x]', 'three'].map((t) => p.translate(t)));
    expect(answers).toEqual(['one', 'two [x]', 'three']);
    expect(p.starts).toBe(1);
    await p.close();
  });

  it('fails a request that hangs, kills the pipeline and starts a new one for the next request', async () => {
    // The first process never answers; the second (a new process) echoes.
    const script = 'if [ -e "$MARK" ]; then cat; else touch "$MARK"; sleep 30; fi';
    const mark = `/tmp/apertium-hang-${process.pid}-${Date.now()}`;
    const p = new ApertiumPipeline('hang', `MARK=${mark}; ${script}`, { timeoutMs: 300 });
    await expect(p.translate('first')).rejects.toThrow(/no answer in 300 ms/);
    await expect(p.translate('second')).resolves.toBe('second');
    expect(p.starts).toBe(2);
    await p.close();
    rmSync(mark, { force: true });
  });

  it('fails the request in flight when the pipeline exits, and restarts on the next one', async () => {
    const p = new ApertiumPipeline('crash', 'exit 3', { timeoutMs: 5000 });
    await expect(p.translate('x')).rejects.toThrow(/exited \(3\)/);
    await expect(p.translate('y')).rejects.toThrow(/exited \(3\)/);
    expect(p.starts).toBe(2);
    await p.close();
  });

  it('refuses requests after close', async () => {
    const p = new ApertiumPipeline('cat', 'cat', { timeoutMs: 5000 });
    await p.close();
    await expect(p.translate('x')).rejects.toThrow(/closed/);
  });
});

describe.skipIf(!installed)('apertium translator (Debian pairs)', () => {
  let translator: ApertiumTranslator;

  beforeAll(() => {
    const result = createApertiumTranslator();
    if (!result.translator) throw new Error(result.reason);
    translator = result.translator;
  });
  afterAll(() => translator.close());

  it('translates English to Spanish', async () => {
    const es = await translator.translate('The meeting is tomorrow and I will send the report.', 'en', 'es');
    expect(es).toMatch(/reunión/);
    expect(es).toMatch(/mañana/);
    expect(es).toMatch(/informe/);
  });

  it('translates French to English through Spanish', async () => {
    expect(translator.route('fr', 'en')).toEqual(['fr-es', 'spa-eng']);
    const en = await translator.translate('Nous devons envoyer le rapport demain.', 'fr', 'en');
    expect(en).toMatch(/report/);
    expect(en).toMatch(/tomorrow/);
  });

  it('says exactly which languages it reaches and refuses the others', async () => {
    expect(translator.targets('en').sort()).toEqual(['en', 'es', 'fr', 'it', 'pt']);
    expect(translator.supports('pt', 'it')).toBe(true);
    expect(translator.supports('en', 'de')).toBe(false);
    expect(translator.supports('ja', 'en')).toBe(false);
    await expect(translator.translate('Hello', 'en', 'de')).rejects.toBeInstanceOf(UnsupportedLanguageError);
    await expect(translator.translate('Hello', 'en', 'en')).resolves.toBe('Hello');
  });

  it('keeps characters the stream format reserves', async () => {
    const es = await translator.translate('The file [draft] costs ^5 dollars.', 'en', 'es');
    expect(es).toContain('[');
    expect(es).toContain(']');
    expect(es).toContain('^5');
  });

  it('gives each of many concurrent calls its own answer', async () => {
    const lines = [
      'The house is red.',
      'I have two dogs.',
      'The car is blue.',
      'We eat bread.',
      'Good morning.',
    ];
    const answers = await Promise.all(lines.map((l) => translator.translate(l, 'en', 'es')));
    expect(answers[0]).toMatch(/casa/);
    expect(answers[1]).toMatch(/perros/);
    expect(answers[2]).toMatch(/coche|carro/);
    expect(answers[3]).toMatch(/pan/);
    expect(answers[4]).toMatch(/Buenos días/i);
  });
});
