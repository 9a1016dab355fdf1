import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DbHandle } from '../../src/db/index.js';
import { createTestDb } from '../db.js';

/**
 * Security review, item 9 (logs): client aborts and oversize or malformed frames are the client's
 * doing, not server errors. They were logged at error level with a stack, once per frame. The
 * server's log (every level from debug) is read here while a client does all of those things.
 */
interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}
const lines: LogLine[] = [];
const ERROR = 50;
let app: App;
let db: DbHandle;
let port: number;
let wsBase: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });
  db = await createTestDb();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  app = await buildApp(config, { db, logStream });
  await app.ready();
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
  wsBase = address.replace(/^http/, 'ws');
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function openWs(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/ws?meetingId=123-456-789&name=Mallory`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

const closeCode = (ws: WebSocket) =>
  new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
const rawSocket = (ws: WebSocket) => (ws as unknown as { _socket: net.Socket })._socket;

/** A raw TCP client: writes `text`, then resets the connection (or just closes its side). */
function rawHttp(text: string, how: 'reset' | 'end'): Promise<void> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1', () => {
      sock.write(text, () => {
        if (how === 'reset') sock.resetAndDestroy();
        else sock.end();
      });
    });
    sock.on('error', () => undefined);
    sock.on('close', () => resolve());
    sock.resume();
  });
}

describe('what clients do wrong', () => {
  it('is logged below error level, without a stack per frame', async () => {
    const start = lines.length;
    const frames: Array<[string, (ws: WebSocket) => void, number]> = [
      // Over WS_LIMITS.maxMessageBytes.
      ['oversize', (ws) => ws.send('x'.repeat(70_000)), 1009],
      // Text frame that is not UTF-8.
      ['invalid utf-8', (ws) => ws.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false }), 1007],
      // Reserved opcode 3, masked, empty.
      ['bad opcode', (ws) => rawSocket(ws).write(Buffer.from([0x83, 0x80, 1, 2, 3, 4])), 1002],
      // A client frame without a mask.
      ['unmasked', (ws) => rawSocket(ws).write(Buffer.from([0x81, 0x02, 0x68, 0x69])), 1002],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [, act, expected] of frames) {
        const ws = await openWs();
        const closed = closeCode(ws);
        act(ws);
        expect(await closed).toBe(expected);
      }
    }
    // Frames the protocol refuses: answered (bad_message), nothing logged as an error.
    const ws = await openWs();
    const answers: string[] = [];
    ws.on('message', (d) => answers.push(String(d)));
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'no_such_type' }));
    ws.send(
      JSON.stringify({
        type: 'collaboration_update',
        data: { a: JSON.parse('['.repeat(40) + ']'.repeat(40)) },
      }),
    );
    while (answers.length < 3) await sleep(20);
    expect(answers.every((a) => a.includes('bad_message'))).toBe(true);
    // A client that resets its connection in the middle of a frame.
    rawSocket(ws).write(Buffer.from([0x81, 0xfe, 0x10]));
    rawSocket(ws).resetAndDestroy();

    // HTTP: a body cut off by a reset, a body cut short, a request that is not HTTP, headers too
    // large, an upgrade reset at once, a request reset before its answer.
    const body =
      'POST /api/meetings/123-456-789/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    await rawHttp(`${body}Content-Length: 5000\r\n\r\n{"name":"Mallo`, 'reset');
    await rawHttp(`${body}Content-Length: 5000\r\n\r\n{"name":"Mallo`, 'end');
    await rawHttp('GARBAGE\r\n\r\n', 'end');
    await rawHttp(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'end');
    await rawHttp(
      'GET /ws?meetingId=1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      'reset',
    );
    await rawHttp('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n', 'reset');
    await sleep(1000);

    const logged = lines.slice(start);
    const errors = logged.filter((l) => l.level >= ERROR);
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    // Each refused frame is one short line (info), never a stack.
    const refused = logged.filter((l) => l.msg === 'websocket closed: the client sent an invalid frame');
    expect(refused).toHaveLength(frames.length * 3);
    expect(logged.filter((l) => JSON.stringify(l).includes('"stack"'))).toEqual([]);
    expect(new Set(refused.map((l) => l.code))).toEqual(
      new Set([
        'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
        'WS_ERR_INVALID_UTF8',
        'WS_ERR_INVALID_OPCODE',
        'WS_ERR_EXPECTED_MASK',
      ]),
    );
  });

  it('still logs a real server error at error level (the test reads the log)', () => {
    app.log.error({ err: new Error('boom') }, 'a real failure');
    expect(lines.filter((l) => l.level >= ERROR && l.msg === 'a real failure')).toHaveLength(1);
  });
});
