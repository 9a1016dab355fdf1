import { describe, expect, it } from 'vitest';
import { sniffMimeType } from './sniff.js';

const b = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffMimeType', () => {
  it.each([
    ['png', b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest'), 'image/png'],
    ['jpeg', b([0xff, 0xd8, 0xff, 0xe0], 'JFIF'), 'image/jpeg'],
    ['gif', b('GIF89a', [1, 0]), 'image/gif'],
    ['webp', b('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['pdf', b('%PDF-1.7\n'), 'application/pdf'],
    [
      'docx',
      b([0x50, 0x4b, 0x03, 0x04], '....[Content_Types].xml....word/document.xml'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    [
      'xlsx',
      b([0x50, 0x4b, 0x03, 0x04], '....xl/workbook.xml'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['zip', b([0x50, 0x4b, 0x03, 0x04], 'notes.txt'), 'application/zip'],
    ['utf-8 text', Buffer.from('Grüße, 你好\n', 'utf8'), 'text/plain; charset=utf-8'],
    ['svg is text', b('<svg onload="alert(1)"/>'), 'text/plain; charset=utf-8'],
    ['binary', b([0x00, 0x01, 0x02]), 'application/octet-stream'],
    ['invalid utf-8', b([0xc3, 0x28, 0x41]), 'application/octet-stream'],
  ])('%s', (_name, bytes, type) => {
    expect(sniffMimeType(bytes)).toBe(type);
  });

  it('accepts text whose last character is cut at the sniff window', () => {
    const text = Buffer.from('ab€', 'utf8');
    expect(sniffMimeType(text.subarray(0, text.length - 1))).toBe('text/plain; charset=utf-8');
  });
});
