import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { safe, stripUnsafeText, unsafeTextReason } from './safe-text.js';
import { joinRequestSchema, roomNameSchema } from './ws.js';

describe('the rule for typed text', () => {
  it.each([
    ['NUL', 'Ann\u0000'],
    ['escape', 'Ann\u001b[31m'],
    ['DEL', 'Ann\u007f'],
    ['C1', 'Ann\u0085'],
    ['line separator', 'Ann\u2028'],
    ['newline in a name', 'Ann\nBob'],
  ])('refuses a control character (%s) in single-line text', (_what, value) => {
    expect(unsafeTextReason(value)).toBe('control');
  });

  it.each(['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'])(
    'refuses the direction control U+%s',
    (c) => {
      expect(unsafeTextReason(`invoice${c}fdp.exe`)).toBe('bidi');
    },
  );

  it('refuses a lone surrogate half', () => {
    expect(unsafeTextReason('a\ud800b')).toBe('surrogate');
  });

  it('takes letters of every script, accents, emoji and the direction marks', () => {
    for (const name of [
      'José Müller',
      'Zoë 🎉',
      '👩🏽‍💻 Dev',
      'مريم الأحمد',
      'שרה כהן',
      'Ali\u200f (CEO)',
      '李小龍',
      'ﷺ',
    ]) {
      expect(unsafeTextReason(name)).toBeNull();
    }
  });

  it('keeps tabs and line breaks in multi-line text only', () => {
    expect(unsafeTextReason('line 1\r\nline 2\tend', { multiline: true })).toBeNull();
    expect(unsafeTextReason('line 1\u0000', { multiline: true })).toBe('control');
  });

  it('strips what it refuses from text nobody can send back', () => {
    expect(stripUnsafeText('re\u0000port\u202e.pdf')).toBe('report.pdf');
    expect(stripUnsafeText('مريم 🎉')).toBe('مريم 🎉');
  });

  it('keeps the schema it wraps: trimming, bounds and their messages', () => {
    const schema = safe(z.string().trim().min(2, 'too short').max(5));
    expect(schema.parse('  Al  ')).toBe('Al');
    expect(schema.safeParse('A').error?.issues[0]?.message).toBe('too short');
    expect(schema.safeParse('A\u0000l').error?.issues[0]?.message).toBe(
      'must not contain control characters',
    );
  });

  it('is what the room takes as a name', () => {
    expect(roomNameSchema.safeParse('Ann\u202e').success).toBe(false);
    const join = joinRequestSchema.safeParse({ name: 'Eve', sessionId: 's\u0000' });
    expect(join.success).toBe(false);
  });
});
