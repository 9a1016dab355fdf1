/**
 * Security review (tests): the authorization matrix. Every REST route of the running app and
 * every client WebSocket message of the protocol has a declared decision per role, and the test
 * checks each decision against the server. A route or message added later without a decision
 * fails "every route/message has a decision" until someone decides who may use it.
 *
 * REST roles: anonymous, a signed-in free user, a signed-in Pro user (not the owner), the host
 * (the meeting's owner, with its session and its join token), another user (Pro, signed in,
 * a participant of another meeting) and an admitted guest (the meeting's join token only).
 * WebSocket roles: a socket that has not joined, a guest still in the waiting room, an admitted
 * guest (anonymous, free and Pro signed-in guests alike: on the socket they are guests), the host
 * and a participant of another meeting aiming at this meeting's participants.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clientMessageSchema, WS_CLOSE, type ClientMessageType } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordings } from '../../src/db/schema/index.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { connect, enter, listen, postJoin, type TestSocket } from '../ws-client.js';
import { ALL_METHODS, liveRoutes } from '../route-table.js';

// ------------------------------------------------------------------------------------ REST

const ROLES = ['anonymous', 'free', 'pro', 'host', 'other', 'guest'] as const;
type Role = (typeof ROLES)[number];

/**
 * allow: the request reaches the route's work (not 401/403/404, never 5xx).
 * deny: refused as unauthorized, forbidden or as if the resource did not exist (401/403/404).
 * open: a public route whose answer to a made-up request may be anything but 401/403 or a 5xx
 * (the development OpenID issuer, redirects of the sign-in flow, signed webhooks).
 */
type Outcome = 'allow' | 'deny' | 'open';

const everyone = (o: Outcome): Record<Role, Outcome> =>
  Object.fromEntries(ROLES.map((r) => [r, o])) as Record<Role, Outcome>;
const only = (...allowed: Role[]): Record<Role, Outcome> =>
  Object.fromEntries(ROLES.map((r) => [r, allowed.includes(r) ? 'allow' : 'deny'])) as Record<Role, Outcome>;
const SIGNED_IN: Role[] = ['free', 'pro', 'host', 'other'];
const PRO: Role[] = ['pro', 'host', 'other'];

interface Who {
  role: Role;
  email: string | null;
  cookie: string | null;
  joinToken: string | null;
}

interface RouteDecision {
  roles: Record<Role, Outcome>;
  /** The request's body, for the role making it. */
  body?: (who: Who) => unknown;
  /** A multipart upload instead of JSON. */
  multipart?: true;
  /** A path of its own (e.g. DELETE gets a meeting made for it). */
  path?: (who: Who) => Promise<string>;
}

const DECISIONS: Record<string, RouteDecision> = {
  'GET /api/health': { roles: everyone('allow') },
  'GET /api/ready': { roles: everyone('allow') },
  'GET /metrics': { roles: everyone('allow') },
  'GET /api/auth/user': { roles: only(...SIGNED_IN) },
  'PATCH /api/auth/user/update': {
    roles: only(...SIGNED_IN),
    body: () => ({ firstName: 'Eve', lastName: 'Smith' }),
  },
  'GET /api/login': { roles: everyone('open') },
  'GET /api/logout': { roles: everyone('open') },
  'GET /api/callback': { roles: everyone('open') },
  'GET /api/subscription/config': { roles: everyone('allow') },
  'GET /api/subscription/status': { roles: only(...SIGNED_IN) },
  // The owner's e-mail in the path: only the owner may read it.
  'GET /api/subscription/status/:email': { roles: only('host') },
  // Another user's checkout session answers the same 400 as an unknown one (bad-input.test.ts),
  // so for signed-in callers this matrix only checks that it is not an authorization leak.
  'POST /api/subscription/confirm/:sessionId': {
    roles: { ...everyone('open'), anonymous: 'deny', guest: 'deny' },
  },
  'POST /api/subscription/create': { roles: only(...SIGNED_IN), body: (w) => ({ email: w.email }) },
  'POST /api/subscription/cancel': { roles: only(...SIGNED_IN), body: (w) => ({ email: w.email }) },
  'POST /api/subscription/reactivate': { roles: only(...SIGNED_IN), body: (w) => ({ email: w.email }) },
  // Authenticated by the provider's signature over the body, not by a session.
  'POST /api/webhooks/stripe': { roles: everyone('open') },
  // The sandbox card form: the client secret is the credential.
  'POST /api/payment/sandbox/confirm': { roles: everyone('open') },
  'POST /api/payment/sandbox/authenticate': { roles: everyone('open') },
  // The free tier's card: saved in a billing session, i.e. by an admitted participant of the
  // meeting (its join token), for its own account or browser (issue 34 item 7).
  'POST /api/payment/setup-intent': {
    roles: only('host', 'guest'),
    body: (who) => ({ email: who.email ?? 'guest@example.com', meetingId: w.meetingId }),
  },
  // Without a confirmed setup intent of the caller's own: 409/400 for everyone.
  'POST /api/payment/save-method': {
    roles: everyone('open'),
    body: (who) => ({ email: who.email ?? 'guest@example.com', paymentMethodId: 'pm_matrix' }),
  },
  // The caller's own saved card pays (402 without one), for the caller's own participant.
  'POST /api/billing/start': {
    roles: everyone('open'),
    body: (who) => ({ meetingId: w.meetingId, participantEmail: who.email ?? 'guest@example.com' }),
  },
  'GET /api/billing/usage': { roles: everyone('allow') },
  'GET /api/meetings/:meetingId/free-time-cover': { roles: only('host') },
  'PUT /api/meetings/:meetingId/free-time-cover': {
    roles: only('host'),
    body: () => ({ coverEveryone: false }),
  },
  'POST /api/meetings': { roles: only(...PRO), body: () => ({ meetingType: 'instant', title: 'Matrix' }) },
  'GET /api/meetings/scheduled': { roles: only(...SIGNED_IN) },
  'POST /api/meetings/invitations': {
    roles: only('host'),
    body: () => ({ meetingId: w.meetingId, invitees: [{ email: 'guest@example.com', name: 'Guest' }] }),
  },
  'GET /api/meetings/:meetingId': { roles: only('host') },
  'PUT /api/meetings/:meetingId': { roles: only('host'), body: () => scheduledExample() },
  'DELETE /api/meetings/:meetingId': {
    roles: only('host'),
    path: async () => `/api/meetings/${(await createMeeting(t, { hostId: w.owner.userId })).meetingId}`,
  },
  // Joining by link needs only a name (DESIGN.md).
  'POST /api/meetings/:meetingId/join': {
    roles: everyone('allow'),
    body: (who) => ({
      name: 'Matrix',
      isHost: who.role === 'host',
      isMuted: true,
      isVideoOn: false,
      sessionId: `matrix-${who.role}`,
    }),
  },
  'POST /api/meetings/:meetingId/participants': {
    roles: everyone('allow'),
    body: () => ({ name: 'Matrix', email: 'matrix@example.com' }),
  },
  'GET /api/meetings/:meetingId/participants': { roles: only('host', 'guest') },
  'POST /api/meetings/:meetingId/files': { roles: only('host', 'guest'), multipart: true },
  'GET /api/files/:id': { roles: only('host', 'guest') },
  // Recordings: the signed-in user's own list; a recording's file for its meeting's owner only.
  'GET /api/recordings': { roles: only(...SIGNED_IN) },
  'GET /api/recordings/:id/download': {
    roles: only('host'),
    path: async () => `/api/recordings/${w.recordingId}/download`,
  },
  'GET /api/recordings/:id/play': {
    roles: only('host'),
    path: async () => `/api/recordings/${w.recordingId}/play`,
  },
  // Deleting one frees the host's recording storage: its meeting's owner only (a fresh one each).
  'DELETE /api/recordings/:id': {
    roles: only('host'),
    path: async () => `/api/recordings/${await readyRecording(w.meetingRowId)}`,
  },
  'GET /api/ai/capabilities': { roles: everyone('allow') },
  // What this server does (issue 37 item 10): public, the landing page asks.
  'GET /api/features': { roles: everyone('allow') },
  // A meeting's AI content: Pro, and its owner or a participant of its room (join token).
  'GET /api/meetings/:meetingId/transcripts': { roles: only('host') },
  // Its WebVTT, SubRip and text downloads (issue 35 item 4): the same people as the list.
  'GET /api/meetings/:meetingId/transcripts/export': {
    roles: only('host'),
    path: async () => `/api/meetings/${w.meetingId}/transcripts/export?format=vtt`,
  },
  // A Pro participant of the live room may generate one too, but only the host's is saved
  // (replacing the last): test/abuse/pro-benefits.test.ts.
  'POST /api/meetings/:meetingId/summary': { roles: only('host'), body: () => ({ participants: [] }) },
  // The owner has no summary yet (404), which is not a refusal: 'open' for the owner.
  'GET /api/meetings/:meetingId/summary': { roles: { ...only(), host: 'open' } },
  'GET /api/meetings/:meetingId/summary/pdf': { roles: only('host') },
  'PUT /api/meetings/:meetingId/retention': { roles: only('host'), body: () => ({ keep: false }) },
  // The meeting's shared notes (whiteboard and notes document): its owner only.
  'GET /api/meetings/:meetingId/notes': { roles: only('host') },
  // The meeting report and its PDF: its owner only.
  'GET /api/meetings/:meetingId/report': { roles: only('host') },
  'GET /api/meetings/:meetingId/report.pdf': { roles: only('host') },
  // The files area: the meeting's admitted participants (join token), like its downloads.
  'GET /api/meetings/:meetingId/files': { roles: only('host', 'guest') },
  'POST /api/ai/transcribe': { roles: only(...PRO), multipart: true },
  'POST /api/ai/live-transcribe': { roles: only(...PRO), multipart: true },
  'GET /api/backgrounds': { roles: everyone('allow') },
  'GET /api/backgrounds/:backgroundId/thumbnail': {
    roles: everyone('allow'),
    path: async () => '/api/backgrounds/office-loft/thumbnail',
  },
  // A premium picture: Pro users only (the free ones are open to anyone, backgrounds.test.ts).
  'GET /api/backgrounds/:backgroundId/image': {
    roles: only(...PRO),
    path: async () => '/api/backgrounds/meeting-room/image',
  },
  'GET /api/backgrounds/preferences': { roles: only(...SIGNED_IN) },
  'PUT /api/backgrounds/preferences': {
    roles: only(...SIGNED_IN),
    body: () => ({ backgroundType: 'blur', blurIntensity: 5 }),
  },
  'GET /api/backgrounds/custom': { roles: only(...SIGNED_IN) },
  // Pro only; the matrix's text file then gets 415 (not an image), which is past authorization.
  'POST /api/backgrounds/custom': { roles: only(...PRO), multipart: true },
  // An upload is served to and deleted by its owner alone: an id that is not the caller's upload
  // is the same 404 for everyone (the owner's side is in backgrounds/custom.test.ts).
  'GET /api/backgrounds/custom/:id': { roles: everyone('deny') },
  'DELETE /api/backgrounds/custom/:id': { roles: everyone('deny') },
  // A participant changes their own effect only: the guest here is Gina, the path's participant.
  'POST /api/meetings/:meetingId/participants/:participantId/background': {
    roles: only('guest'),
    body: () => ({ backgroundType: 'blur', blurIntensity: 5 }),
    path: async () => `/api/meetings/${w.meetingId}/participants/${w.guestId}/background`,
  },
  // Development only (refused to start on a public address, issue 10 item 10).
  'GET /dev/api/outbox': { roles: everyone('open') },
  'GET /dev/outbox': { roles: everyone('open') },
  // Without an Upgrade header: 426; the socket's own rules are the WebSocket matrix below.
  'GET /ws': { roles: everyone('open') },
  '* /oidc': { roles: everyone('open') },
  '* /oidc/*': { roles: everyone('open') },
  'GET /oidc/assets/logout.js': { roles: everyone('open') },
  'GET /oidc/interaction/:uid': { roles: everyone('open') },
  'POST /oidc/interaction/:uid/login': { roles: everyone('open') },
};

function scheduledExample() {
  return {
    meetingType: 'scheduled',
    title: 'Matrix',
    description: 'x',
    hostEmail: 'owner@example.com',
    scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
    duration: 60,
    timezone: 'UTC',
    isRecurring: false,
    recurrencePattern: null,
    maxParticipants: 10,
    requiresPassword: false,
    password: null,
    waitingRoom: false,
    allowRecording: false,
    invitees: [],
  };
}

// --------------------------------------------------------------------------------- WebSocket

const WS_ROLES = ['unjoined', 'waiting', 'guest', 'host', 'other'] as const;
type WsRole = (typeof WS_ROLES)[number];

/** Who may send each client message (docs/protocol.md); the rest get an error and nothing happens. */
const WS_DECISIONS: Record<ClientMessageType, WsRole[]> = {
  join_meeting: ['unjoined'],
  ping: ['unjoined', 'waiting', 'guest', 'host', 'other'],
  request_existing_connections: ['guest', 'host', 'other'],
  offer: ['guest', 'host'],
  answer: ['guest', 'host'],
  'ice-candidate': ['guest', 'host'],
  chat_message: ['guest', 'host', 'other'],
  media_state: ['guest', 'host', 'other'],
  collaboration_update: ['guest', 'host', 'other'],
  mute_all: ['host'],
  mute_participant: ['host'],
  remove_participant: ['host'],
  admit_participant: ['host'],
  deny_participant: ['host'],
  allow_rejoin: ['host'],
  // End meeting for everyone (issue 37): the host only (the room's forbidden, its 403).
  end_meeting: ['host'],
  // Starting transcription needs Pro: the owner is; the guests here are not (subscription_required).
  set_transcription: ['host'],
  set_caption_language: ['guest', 'host', 'other'],
  // Consent to transcription is each admitted participant's own answer (a waiting guest has none).
  set_transcription_consent: ['guest', 'host', 'other'],
  leave_meeting: ['waiting', 'guest', 'host', 'other'],
  // Talk time: an admitted participant's own speaking (a waiting guest's is refused).
  speaking: ['guest', 'host', 'other'],
  // The SFU's messages: refused to everyone here, where media is peer-to-peer (no Janus in the
  // API tests); with an SFU they are an admitted participant's (media/sfu.test.ts).
  sfu_publish: [],
  sfu_subscribe: [],
  sfu_answer: [],
  sfu_trickle: [],
  sfu_view: [],
  sfu_keyframe: [],
  // Leaving the SFU is an admitted participant's, and a no-op where the room holds nothing on one.
  sfu_leave: ['guest', 'host', 'other'],
  // Recording needs a host with Pro (pro-benefits.test.ts), the SFU (none in the API tests) and a
  // meeting that allows it: refused to everyone here; a non-host's refusal is recordings.test.ts'.
  set_recording: [],
};

/** A valid example of each message, aimed at this meeting's admitted (Tess) or waiting (Wendy) guest. */
function example(
  type: ClientMessageType,
  ids: { tess: string; wendy: string; rex: string; token: string },
): unknown {
  const sdp = { type: 'offer', sdp: 'v=0\r\n' };
  switch (type) {
    case 'join_meeting':
      return { type, requestId: 'm', joinToken: ids.token };
    case 'ping':
    case 'request_existing_connections':
      return { type, requestId: 'm' };
    case 'offer':
      return { type, targetParticipant: ids.tess, offer: sdp };
    case 'answer':
      return { type, targetParticipant: ids.tess, answer: { ...sdp, type: 'answer' } };
    case 'ice-candidate':
      return { type, targetParticipant: ids.tess, candidate: null };
    case 'chat_message':
      return { type, requestId: 'm', content: 'hello' };
    case 'media_state':
      return { type, isMuted: true, isVideoOn: false };
    case 'collaboration_update':
      // A sync request from an empty document (state vector [0]).
      return { type, data: { kind: 'sync_request', stateVector: 'AA==' } };
    case 'mute_all':
      return { type, requestId: 'm', muted: true };
    case 'mute_participant':
      return { type, requestId: 'm', targetParticipantId: ids.tess, muted: true };
    case 'remove_participant':
      return { type, requestId: 'm', targetParticipantId: ids.tess };
    case 'admit_participant':
    case 'deny_participant':
      return { type, requestId: 'm', targetParticipantId: ids.wendy };
    case 'allow_rejoin':
      return { type, requestId: 'm', removedId: ids.rex };
    case 'end_meeting':
      return { type, requestId: 'm' };
    case 'leave_meeting':
      return { type };
    case 'set_transcription':
      return { type, requestId: 'm', on: true };
    case 'set_caption_language':
      return { type, requestId: 'm', language: 'es' };
    case 'set_transcription_consent':
      return { type, requestId: 'm', consent: 'declined' };
    case 'speaking':
      return { type, speaking: true };
    case 'sfu_publish':
      return { type, requestId: 'm', offer: sdp };
    case 'sfu_subscribe':
    case 'sfu_leave':
      return { type, requestId: 'm' };
    case 'sfu_answer':
      return { type, offerId: 1, answer: { ...sdp, type: 'answer' } };
    case 'sfu_trickle':
      return { type, target: 'publisher', candidate: null };
    case 'sfu_view':
      return { type, requestId: 'm', videos: [{ participantId: ids.tess, quality: 'low' }] };
    case 'sfu_keyframe':
      return { type, requestId: 'm', participantId: ids.tess };
    case 'set_recording':
      return { type, requestId: 'm', on: true };
  }
}

// ------------------------------------------------------------------------------------ world

let t: TestContext;
let ws: string;
const sockets: TestSocket[] = [];
interface Person {
  cookie: string;
  userId: string;
  email: string;
}
let w: {
  owner: Person;
  pro: Person;
  free: Person;
  other: Person & { joinToken: string };
  meetingId: string;
  subscriptionId: string;
  guestToken: string;
  fileId: string;
  guestId: string;
  recordingId: string;
  meetingRowId: string;
};

beforeAll(async () => {
  t = await createTestApp();
  ws = (await listen(t)).ws;
  const person = async (email: string, pro: boolean) => {
    const p = await signIn(t, { email, firstName: email.split('@')[0] });
    // Pro through the payments sandbox's own flow, as a real subscription is made.
    if (pro) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/subscription/create',
        headers: { cookie: p.cookie },
        payload: { email },
      });
      const { clientSecret } = created.json<{ clientSecret: string }>();
      const paid = await t.app.inject({
        method: 'POST',
        url: '/api/payment/sandbox/confirm',
        payload: { clientSecret, cardNumber: '4242424242424242', expiry: '12 / 34', cvc: '123' },
      });
      expect(paid.statusCode).toBeLessThan(300);
    }
    return { ...p, email };
  };
  const owner = await person('owner@example.com', true);
  const pro = await person('pro@example.com', true);
  const free = await person('free@example.com', false);
  const other = await person('other@example.com', true);
  const meeting = await createMeeting(t, { hostId: owner.userId });
  const otherMeeting = await createMeeting(t, { hostId: other.userId });
  const o = await enter(t, ws, otherMeeting.meetingId, { name: 'Otto', isHost: true, cookie: other.cookie });
  const g = await enter(t, ws, meeting.meetingId, { name: 'Gina' });
  sockets.push(o.socket, g.socket);
  const upload = await t.app.inject(multipart(`/api/meetings/${meeting.meetingId}/files`, g.join.joinToken));
  expect(upload.statusCode).toBe(201);
  const [sub] = await t.db.db.query.subscriptions.findMany({
    where: (s, { eq }) => eq(s.userId, owner.userId),
  });
  w = {
    owner,
    pro,
    free,
    other: { ...other, joinToken: o.join.joinToken },
    meetingId: meeting.meetingId,
    subscriptionId: sub!.subscriptionId!,
    guestToken: g.join.joinToken,
    fileId: upload.json<{ id: string }>().id,
    guestId: g.join.id,
    recordingId: await readyRecording(meeting.id),
    meetingRowId: meeting.id,
  };
});

/** A finished recording of the owner's meeting (a row and a small file), as the job leaves one. */
async function readyRecording(meetingRowId: string): Promise<string> {
  const [row] = await t.db.db
    .insert(recordings)
    .values({ meetingId: meetingRowId, startedBy: 'host', startedAt: new Date(), status: 'ready' })
    .returning();
  const rel = path.join(meetingRowId, `${row!.id}.mp4`);
  mkdirSync(path.join(t.config.recordings.dir, meetingRowId), { recursive: true });
  writeFileSync(path.join(t.config.recordings.dir, rel), 'not really a video');
  await t.db.db
    .update(recordings)
    .set({ filePath: rel, size: 18, durationMs: 1000 })
    .where(eq(recordings.id, row!.id));
  return row!.id;
}
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

function multipart(url: string, token: string | null): InjectOptions {
  const boundary = 'matrix-boundary';
  return {
    method: 'POST',
    url,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload:
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
  };
}

/** The role's credentials, fresh for each request (some routes end the session they are sent with). */
async function credentials(role: Role): Promise<Who> {
  const again = async (p: Person) => (await signIn(t, { email: p.email, firstName: 'x' })).cookie;
  switch (role) {
    case 'anonymous':
      return { role, email: null, cookie: null, joinToken: null };
    case 'free':
      return { role, email: w.free.email, cookie: await again(w.free), joinToken: null };
    case 'pro':
      return { role, email: w.pro.email, cookie: await again(w.pro), joinToken: null };
    case 'other':
      return { role, email: w.other.email, cookie: await again(w.other), joinToken: w.other.joinToken };
    case 'guest':
      return { role, email: null, cookie: null, joinToken: w.guestToken };
    case 'host': {
      const cookie = await again(w.owner);
      const join = await postJoin(t, w.meetingId, { isHost: true, cookie, sessionId: 'owner-tab' });
      return { role, email: w.owner.email, cookie, joinToken: join.joinToken };
    }
  }
}

function concrete(path: string): string {
  const values: Record<string, string> = {
    meetingId: w.meetingId,
    email: encodeURIComponent(w.owner.email),
    sessionId: w.subscriptionId,
    id: w.fileId,
    uid: 'matrix-uid',
  };
  return path.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? 'x').replace(/\*$/, 'matrix');
}

// ------------------------------------------------------------------------------ the routes

function decisionKeys(): string[] {
  const routes = liveRoutes(t.app.printRoutes({ commonPrefix: false }));
  const keys = new Set<string>();
  for (const r of routes) {
    const methods = routes.filter((x) => x.path === r.path).map((x) => x.method);
    if (ALL_METHODS.every((m) => methods.includes(m))) keys.add(`* ${r.path}`);
    else if (r.method !== 'HEAD' && r.method !== 'OPTIONS') keys.add(`${r.method} ${r.path}`);
  }
  return [...keys];
}

function judge(status: number, outcome: Outcome): boolean {
  if (status >= 500) return false;
  const refused = status === 401 || status === 403 || status === 404;
  if (outcome === 'deny') return refused;
  if (outcome === 'allow') return !refused;
  return status !== 401 && status !== 403;
}

describe('REST: every route has a decision per role', () => {
  it('every route of the running app has a decision (a new route fails here until decided)', () => {
    const undecided = decisionKeys().filter((k) => !(k in DECISIONS));
    expect(undecided, 'add these to DECISIONS, saying who may call them').toEqual([]);
    const stale = Object.keys(DECISIONS).filter((k) => !decisionKeys().includes(k));
    expect(stale, 'decisions for routes that no longer exist').toEqual([]);
  });

  it('each role gets what its decision says, from every route', async () => {
    const wrong: string[] = [];
    for (const key of decisionKeys()) {
      const decision = DECISIONS[key];
      if (!decision) continue;
      const [method, path] = key.split(' ') as [string, string];
      for (const role of ROLES) {
        const who = await credentials(role);
        const url = decision.path ? await decision.path(who) : concrete(path);
        const headers: Record<string, string> = {};
        if (who.cookie) headers.cookie = who.cookie;
        if (who.joinToken && !who.cookie) headers.authorization = `Bearer ${who.joinToken}`;
        // The host presents both: its session, and its join token for the room's routes.
        if (who.joinToken && who.cookie) headers.authorization = `Bearer ${who.joinToken}`;
        const request: InjectOptions = decision.multipart
          ? multipart(url, who.joinToken)
          : {
              method: (method === '*' ? 'GET' : method) as 'GET',
              url,
              headers,
              ...(decision.body ? { payload: decision.body(who) as Record<string, unknown> } : {}),
            };
        if (decision.multipart && who.cookie) request.headers = { ...request.headers, cookie: who.cookie };
        const res = await t.app.inject(request);
        const outcome = decision.roles[role];
        if (!judge(res.statusCode, outcome)) {
          wrong.push(
            `${key} as ${role}: expected ${outcome}, got ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

// ------------------------------------------------------------------------- the socket side

const MESSAGE_TYPES = clientMessageSchema.options.map((o) => o.shape.type.value) as ClientMessageType[];

const REFUSALS = new Set([
  'not_joined',
  'forbidden',
  'not_found',
  'already_joined',
  'invalid_token',
  'subscription_required',
]);

/** A meeting with a waiting room: its host, Tess (admitted), Wendy (waiting), Rex (removed), the role's socket. */
async function socketWorld(role: WsRole) {
  const m = await createMeeting(t, { hostId: w.owner.userId, waitingRoom: true });
  const cookie = (await signIn(t, { email: w.owner.email, firstName: 'x' })).cookie;
  const host = await enter(t, ws, m.meetingId, {
    name: 'Hana',
    isHost: true,
    cookie,
    sessionId: `h-${role}`,
  });
  sockets.push(host.socket);
  const admitted = async (name: string) => {
    const g = await enter(t, ws, m.meetingId, { name });
    sockets.push(g.socket);
    host.socket.send({ type: 'admit_participant', targetParticipantId: g.join.id });
    await g.socket.next('joined');
    return g;
  };
  const tess = await admitted('Tess');
  // Rex was removed by the host: he is on the deny list (allow_rejoin names him).
  const rex = await admitted('Rex');
  host.socket.send({ type: 'remove_participant', targetParticipantId: rex.join.id });
  await rex.socket.closed;
  const wendy = await enter(t, ws, m.meetingId, { name: 'Wendy' });
  sockets.push(wendy.socket);
  let socket: TestSocket;
  switch (role) {
    case 'unjoined':
      socket = await connect(ws, m.meetingId);
      break;
    case 'waiting':
      socket = (await enter(t, ws, m.meetingId, { name: 'Walt' })).socket;
      break;
    case 'guest':
      socket = (await admitted('Gabe')).socket;
      break;
    case 'host':
      socket = host.socket;
      break;
    case 'other': {
      const elsewhere = await createMeeting(t, { hostId: w.other.userId });
      socket = (await enter(t, ws, elsewhere.meetingId, { name: 'Otto' })).socket;
      break;
    }
  }
  sockets.push(socket);
  const fresh = await postJoin(t, m.meetingId, { name: 'Newt' });
  return {
    socket,
    ids: { tess: tess.join.id, wendy: wendy.join.id, rex: rex.join.id, token: fresh.joinToken },
  };
}

describe('WebSocket: every client message has a decision per role', () => {
  it('every message of clientMessageSchema has a decision (a new message fails here until decided)', () => {
    expect(MESSAGE_TYPES.filter((type) => !(type in WS_DECISIONS))).toEqual([]);
  });

  it('each role gets what its decision says, for every message', async () => {
    const wrong: string[] = [];
    for (const type of MESSAGE_TYPES) {
      const allowed = WS_DECISIONS[type] ?? [];
      for (const role of WS_ROLES) {
        const { socket, ids } = await socketWorld(role);
        socket.send(example(type, ids));
        let refusal: string | null = null;
        if (type === 'leave_meeting' && allowed.includes(role)) {
          const closed = await socket.closed;
          if (closed.code !== 1000) refusal = `closed ${closed.code}`;
        } else if (type === 'end_meeting' && allowed.includes(role)) {
          // The meeting ends: acknowledged, then the host's own socket closes with everyone's.
          await socket.next('ack');
          const closed = await socket.closed;
          if (closed.code !== WS_CLOSE.meetingEnded) refusal = `closed ${closed.code}`;
        } else {
          await socket.sync();
          const errors = await socket.none('error', 0);
          const refused = errors.find((e) => e.type === 'error' && REFUSALS.has(e.code));
          refusal = refused && refused.type === 'error' ? refused.code : null;
        }
        const expected = allowed.includes(role);
        if (expected === (refusal !== null)) {
          wrong.push(
            `${type} as ${role}: expected ${expected ? 'allowed' : 'refused'}, got ${refusal ?? 'allowed'}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
