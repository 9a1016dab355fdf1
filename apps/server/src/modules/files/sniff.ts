/**
 * Detects a file's type from its first bytes (magic numbers), never from its name or the type the
 * client claimed. Anything not recognised is `application/octet-stream`; text is `text/plain` only
 * when the bytes are valid UTF-8 without control characters. SVG and HTML are deliberately served
 * as text/plain (they could carry scripts).
 */
export const SNIFF_BYTES = 4096;

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const startsWith = (buf: Buffer, bytes: number[], offset = 0): boolean =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

const ascii = (buf: Buffer, start: number, end: number): string =>
  buf.subarray(start, end).toString('latin1');

function sniffZip(head: Buffer): string {
  // OOXML documents are zip files whose entries name the document kind; the first entries are
  // usually [Content_Types].xml, _rels/ and the main part, all within the first few KB.
  const text = head.toString('latin1');
  if (text.includes('word/'))
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (text.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (text.includes('ppt/'))
    return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  if (text.includes('mimetypeapplication/vnd.oasis.opendocument.text'))
    return 'application/vnd.oasis.opendocument.text';
  return 'application/zip';
}

function isUtf8Text(head: Buffer): boolean {
  if (head.length === 0) return true;
  try {
    // `stream: true` tolerates a multi-byte character cut at the end of the sniffed window.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    // Control characters other than tab, newline, carriage return and form feed mean binary.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || c === 0x7f) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The MIME type of a file whose first bytes (up to SNIFF_BYTES) are `head`. */
export function sniffMimeType(head: Buffer): string {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]))
    return sniffZip(head);
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (ascii(head, 4, 8) === 'ftyp') return 'video/mp4';
  if (ascii(head, 0, 3) === 'ID3' || startsWith(head, [0xff, 0xfb])) return 'audio/mpeg';
  if (ascii(head, 0, 4) === 'OggS') return 'audio/ogg';
  if (isUtf8Text(head)) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}
