/**
 * Just enough MIME (RFC 2045/2046) to show stored messages: headers, nested multiparts, and text
 * parts decoded from quoted-printable or base64.
 */

export interface MimePart {
  contentType: string;
  params: Record<string, string>;
  filename: string | null;
  text: string;
}

export interface ParsedMessage {
  headers: Record<string, string>;
  parts: MimePart[];
}

function splitHead(raw: string): [string, string] {
  const i = raw.search(/\r?\n\r?\n/);
  if (i < 0) return [raw, ''];
  const sep = raw.slice(i).match(/^\r?\n\r?\n/)![0];
  return [raw.slice(0, i), raw.slice(i + sep.length)];
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const c = line.indexOf(':');
    if (c > 0) headers[line.slice(0, c).trim().toLowerCase()] = line.slice(c + 1).trim();
  }
  return headers;
}

function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0)
      params[p.slice(0, eq).trim().toLowerCase()] = p
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const soft = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!;
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

function walk(raw: string, into: MimePart[], depth = 0): Record<string, string> {
  const [head, body] = splitHead(raw);
  const headers = parseHeaders(head);
  const { type, params } = parseContentType(headers['content-type']);
  if (type.startsWith('multipart/') && params.boundary && depth < 8) {
    const marker = `--${params.boundary}`;
    const chunks = body.split(marker).slice(1);
    for (const chunk of chunks) {
      if (chunk.startsWith('--')) break;
      walk(chunk.replace(/^\r?\n/, ''), into, depth + 1);
    }
  } else {
    const disposition = parseContentType(headers['content-disposition']);
    into.push({
      contentType: type,
      params,
      filename: disposition.params.filename ?? params.name ?? null,
      text: decodeBody(body, headers['content-transfer-encoding']).replace(/\r?\n$/, ''),
    });
  }
  return headers;
}

export function parseMessage(raw: string): ParsedMessage {
  const parts: MimePart[] = [];
  const headers = walk(raw, parts);
  return { headers, parts };
}
