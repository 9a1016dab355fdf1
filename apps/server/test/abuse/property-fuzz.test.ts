/**
 * Property-based fuzzing (fast-check) of every REST route and every WebSocket client message.
 *
 * bad-input.test.ts and realtime/fuzz.test.ts try a fixed list of wrong values field by field;
 * here fast-check generates the inputs: arbitrary JSON, and near-valid bodies built from each
 * route's own zod schema (every field of the right type with random values, then one field
 * replaced by arbitrary JSON, dropped, or an extra key added). The routes are read from the
 * running app and the message types from the protocol's union, so a route or message added later
 * is fuzzed without touching this file.
 *
 * The properties: no answer is a 5xx, no socket gets `error internal` or a 1011 close, nothing
 * throws outside a handler (Vitest fails the file on an unhandled error), and afterwards the
 * server still answers HTTP and lets a newcomer join and chat. Run counts are bounded (the whole
 * file takes some 10-20 s on the 2-core machine); a failure prints fast-check's seed and the
 * shrunk counterexample, so `fc.assert(..., { seed, path })` replays it.
 */
import { clientMessageSchema } from '@parley/protocol';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';
import { liveRoutes, type LiveRoute } from '../route-table.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/** Generated inputs per REST route (arbitrary JSON + near-valid), and per WebSocket message type. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 40);
const RUNS_PER_MESSAGE = Number(process.env.FUZZ_RUNS_PER_MESSAGE ?? 40);
/**
 * A fixed seed, so CI explores the same inputs every run and a red run is a regression, not a new
 * draw; `FUZZ_SEED=<n>` explores other inputs (fast-check prints the seed of a failure).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

type JsonSchema = Record<string, unknown>;

let t: TestContext;
let http: string;
let routes: LiveRoute[] = [];
const bodySchemas = new Map<string, JsonSchema | null>();
let owner: { cookie: string; userId: string };
let meetingId: string;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    // Each route's body schema, read from the route a probe request lands on (as bad-input does).
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers['x-route-probe'] !== '1') return;
      const body = (request.routeOptions.schema as { body?: unknown } | undefined)?.body;
      bodySchemas.set(
        `${request.method} ${request.routeOptions.url}`,
        body instanceof z.ZodType
          ? (z.toJSONSchema(body, { unrepresentable: 'any', io: 'input' }) as JsonSchema)
          : null,
      );
      return reply.code(204).send();
    });
  });
  ({ http } = await listen(t));
  routes = liveRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
    (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS',
  );
  for (const r of routes) {
    await t.app.inject({
      method: r.method as 'GET',
      url: concrete(r.path, 'x'),
      headers: { 'x-route-probe': '1' },
    });
  }
  owner = await signIn(t, { email: 'prop-owner@example.com', firstName: 'Prop' });
  await makePro(t, owner.userId);
  meetingId = await createInstantMeeting(owner.cookie);
});

async function createInstantMeeting(cookie: string, on: TestContext = t): Promise<string> {
  const res = await on.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: { cookie },
    payload: { meetingType: 'instant', title: 'Fuzzed' },
  });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
  return res.json<{ meetingId: string }>().meetingId;
}

afterAll(async () => t?.close());

function concrete(path: string, param: string): string {
  return path.replace(/:(\w+)/g, () => param).replace(/\*$/, 'fuzz/path');
}

// -------------------------------------------------------------------------------- arbitraries

/** Arbitrary JSON of any shape, some of it large or odd. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      'x'.repeat(70_000),
      -0,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      '../../etc/passwd',
      "1' OR '1'='1",
      { __proto__: { polluted: true } },
      { constructor: { prototype: { polluted: true } } },
      '\u0000',
      '2026-02-30T25:61:00Z',
    ),
  },
);

/** A value that fits a JSON Schema node (loosely: the constraints drive the generators). */
function fromSchema(node: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (!node || typeof node !== 'object' || depth > 4) return anyJson;
  const n = node as JsonSchema;
  if ('const' in n) return fc.constant(n.const);
  if (Array.isArray(n.enum) && n.enum.length > 0) return fc.constantFrom(...(n.enum as unknown[]));
  const branches = (n.anyOf ?? n.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return fc.oneof(...branches.map((b) => fromSchema(b, depth + 1)));
  }
  const type = Array.isArray(n.type) ? n.type[0] : n.type;
  switch (type) {
    case 'string': {
      const min = typeof n.minLength === 'number' ? n.minLength : 0;
      const max = typeof n.maxLength === 'number' ? Math.min(n.maxLength, min + 200) : min + 60;
      if (n.format === 'email') return fc.emailAddress();
      if (n.format === 'uuid') return fc.uuid();
      if (n.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (n.format === 'uri') return fc.webUrl();
      return fc.string({ minLength: min, maxLength: Math.max(min, max) });
    }
    case 'integer':
      return fc.integer({
        min: typeof n.minimum === 'number' ? n.minimum : -1_000_000,
        max: typeof n.maximum === 'number' ? n.maximum : 1_000_000,
      });
    case 'number':
      return fc.double({
        min: typeof n.minimum === 'number' ? n.minimum : -1e9,
        max: typeof n.maximum === 'number' ? n.maximum : 1e9,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(n.items, depth + 1), {
        minLength: typeof n.minItems === 'number' ? n.minItems : 0,
        maxLength: Math.min(typeof n.maxItems === 'number' ? n.maxItems : 5, 8),
      });
    case 'object': {
      const props = (n.properties ?? {}) as Record<string, unknown>;
      const keys = Object.keys(props);
      if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 4 });
      return fc.record(Object.fromEntries(keys.map((k) => [k, fromSchema(props[k], depth + 1)])));
    }
    default:
      return anyJson;
  }
}

/**
 * A near-valid object for a schema: a value that fits, then one change an attacker or a buggy
 * client would make (a field of the wrong shape, a field missing, an extra key), or none.
 */
function nearValid(schema: unknown): fc.Arbitrary<unknown> {
  return fc
    .tuple(fromSchema(schema), fc.nat(), anyJson, fc.constantFrom('replace', 'drop', 'extra', 'none'))
    .map(([value, pick, wrong, change]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value))
        return change === 'none' ? value : wrong;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy).filter((k) => k !== 'type');
      const key = keys.length > 0 ? keys[pick % keys.length] : undefined;
      if (change === 'replace' && key) copy[key] = wrong;
      if (change === 'drop' && key) delete copy[key];
      if (change === 'extra') copy[`extra${pick % 7}`] = wrong;
      return copy;
    });
}

// ------------------------------------------------------------------------------------- REST

/** Path parameters: the owner's real meeting, or generated strings (odd ones included). */
const paramArb = fc.oneof(
  fc.constant<string | null>(null),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.uuid(),
  fc.constantFrom('999-999-998', '..', '%00', 'a'.repeat(3000)),
);

function requestArb(route: LiveRoute): fc.Arbitrary<InjectOptions> {
  const schema = bodySchemas.get(`${route.method} ${route.path}`) ?? null;
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method) || schema !== null;
  const body = hasBody
    ? fc.oneof(
        { weight: 1, arbitrary: anyJson.map((v) => ({ payload: JSON.stringify(v) ?? 'null' })) },
        {
          weight: schema ? 3 : 0,
          arbitrary: nearValid(schema).map((v) => ({ payload: JSON.stringify(v) ?? 'null' })),
        },
        {
          weight: 1,
          arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((s) => ({ payload: s })),
        },
      )
    : fc.constant({ payload: undefined as string | undefined });
  const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 }), {
    maxKeys: 3,
  });
  return fc
    .record({ body, param: paramArb, signedIn: fc.boolean(), query })
    .map(({ body, param, signedIn, query }) => {
      const headers: Record<string, string> = {};
      if (body.payload !== undefined) headers['content-type'] = 'application/json';
      if (signedIn) headers.cookie = owner.cookie;
      return {
        method: route.method as 'POST',
        url: concrete(route.path, param ?? meetingId),
        query,
        headers,
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
      };
    });
}

describe('property-based fuzzing of every REST route (fast-check)', () => {
  it('reads the routes and body schemas from the running app', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect([...bodySchemas.values()].filter(Boolean).length).toBeGreaterThan(15);
    expect(bodySchemas.get('POST /api/meetings/:meetingId/join')).toBeTruthy();
  });

  it('answers every generated request below 500, and still serves afterwards', async () => {
    // The logout route ends the owner's session: keep it last, so the others see a signed-in user.
    const ordered = [...routes].sort(
      (a, b) => Number(a.path === '/api/logout') - Number(b.path === '/api/logout'),
    );
    let requests = 0;
    for (const route of ordered) {
      await fc.assert(
        fc.asyncProperty(requestArb(route), async (request) => {
          requests++;
          const res = await t.app.inject(request);
          if (res.statusCode >= 500) {
            throw new Error(
              `${route.method} ${route.path} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
            );
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED },
      );
    }
    expect(requests).toBeGreaterThanOrEqual(routes.length * RUNS_PER_ROUTE);
    const health = await fetch(`${http}/api/health`);
    expect(health.status).toBe(200);
    const again = await signIn(t, { email: 'prop-after@example.com', firstName: 'After' });
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: again.cookie } });
    expect(me.statusCode).toBe(200);
  });
});

// -------------------------------------------------------------------------------- WebSocket

/** Every client message type with its JSON Schema branch, from the protocol's union. */
function messageBranches(): Array<{ type: string; schema: JsonSchema }> {
  const schema = z.toJSONSchema(clientMessageSchema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  const branches = ((schema.oneOf ?? schema.anyOf ?? []) as JsonSchema[]).map((b) => ({
    type: String((b.properties as Record<string, { const?: string }> | undefined)?.type?.const),
    schema: b,
  }));
  return branches;
}

describe('property-based fuzzing of every WebSocket client message (fast-check)', () => {
  it('never fails a handler, closes no socket with 1011, and the room keeps serving', async () => {
    // An app of its own: the REST fuzz above spent this address's join budget on the first.
    const tw = await createTestApp();
    const { http: httpW, ws: wsW } = await listen(tw);
    tw.app.realtime.settings.messagesPerSecond = 100_000;
    const sockets: TestSocket[] = [];
    try {
      const host = await signIn(tw, { email: 'prop-ws-host@example.com', firstName: 'Host' });
      await makePro(tw, host.userId);
      let roomId = await createInstantMeeting(host.cookie, tw);
      const observer = await enter(tw, wsW, roomId, { name: 'Observer' });
      sockets.push(observer.socket);

      const branches = messageBranches();
      expect(branches.map((b) => b.type)).toContain('chat_message');
      expect(branches.length).toBeGreaterThan(15);

      // One fuzzer per message type, joined as the host (so host-only handlers run past their
      // permission check). A message may legitimately end its socket (leave, end the meeting,
      // a 4xxx close): then the next runs go to a fresh participant.
      let fuzzer: TestSocket | null = null;
      const closes: number[] = [];
      const fresh = async (): Promise<TestSocket> => {
        // A fuzzed end_meeting really ends the meeting (410 after it): the next runs get a new one.
        const join = () => enter(tw, wsW, roomId, { name: 'Fuzzer', isHost: true, cookie: host.cookie });
        const e = await join().catch(async (err: unknown) => {
          if (!String(err).includes('410')) throw err;
          roomId = await createInstantMeeting(host.cookie, tw);
          return join();
        });
        sockets.push(e.socket);
        void e.socket.closed.then(({ code }) => closes.push(code));
        return e.socket;
      };
      let sent = 0;
      for (const { type, schema } of branches) {
        const message = fc.oneof(
          { weight: 3, arbitrary: nearValid(schema) },
          {
            weight: 1,
            arbitrary: fc
              .dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 5 })
              .map((fields) => ({ ...fields, type })),
          },
        );
        await fc.assert(
          fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (batch) => {
            if (!fuzzer || fuzzer.ws.readyState !== WebSocket.OPEN) fuzzer = await fresh();
            for (const m of batch) {
              const withType =
                m && typeof m === 'object' && !Array.isArray(m) ? { ...m, type } : { type, value: m };
              fuzzer.send(withType);
              sent++;
            }
            if (fuzzer.ws.readyState === WebSocket.OPEN) await fuzzer.sync().catch(() => undefined);
            const failed = fuzzer.received.find((r) => r.type === 'error' && r.code === 'internal');
            if (failed) throw new Error(`${type}: error internal: ${JSON.stringify(failed)}`);
          }),
          { numRuns: RUNS_PER_MESSAGE, seed: SEED },
        );
      }
      expect(sent).toBeGreaterThan(branches.length * RUNS_PER_MESSAGE);
      for (const s of sockets) {
        for (const r of s.received) {
          if (r.type === 'error') {
            expect(r.code).not.toBe('internal');
            expect(r.message.length).toBeGreaterThan(0);
          }
        }
      }
      expect(closes.filter((c) => c === 1011)).toEqual([]);

      // Still serving: HTTP answers, a newcomer joins a fresh meeting and chats with someone.
      expect((await fetch(`${httpW}/api/health`)).status).toBe(200);
      const afterId = await createInstantMeeting(host.cookie, tw);
      const a = await enter(tw, wsW, afterId, { name: 'Ann' });
      const b = await enter(tw, wsW, afterId, { name: 'Ben' });
      sockets.push(a.socket, b.socket);
      a.socket.send({ type: 'chat_message', content: 'still here' });
      expect((await b.socket.next('chat_message')).content).toBe('still here');
    } finally {
      for (const s of sockets) s.drop();
      await tw.close();
    }
  });
});
