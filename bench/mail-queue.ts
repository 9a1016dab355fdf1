/**
 * How long a request that invites people takes now that mail goes through the job queue, with a
 * real SMTP transport (smtp-server on loopback, nodemailer over SMTP as in production), on PGlite
 * (embedded default) and on PostgreSQL:
 * - `answerMs`: POST /api/meetings/invitations for N people (the daily allowance, 250: the most
 *   one request may send) until the answer;
 * - `allDeliveredMs`: from the request until the SMTP server has received all N;
 * - `inlineSendMs`: the same N messages sent one after another through the same transport, as the
 *   request used to do before answering.
 * RUNS runs each (default 3), medians.
 *
 *   node --import tsx bench/mail-queue.ts
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, makePro, signIn, type TestContext } from '../apps/server/test/app.js';
import { DAILY_RECIPIENT_LIMIT } from '../apps/server/src/modules/meetings/service.js';
import { recordResult } from './support/results.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const N = DAILY_RECIPIENT_LIMIT;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};

async function startSmtp() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received: () => received };
}

async function oneRun(t: TestContext, smtp: Awaited<ReturnType<typeof startSmtp>>, run: number) {
  const host = await signIn(t, { email: `bench${run}@example.com`, firstName: 'Bench' });
  await makePro(t, host.userId);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/meetings',
    headers: { cookie: host.cookie },
    payload: {
      meetingType: 'scheduled',
      title: 'All hands',
      hostEmail: `bench${run}@example.com`,
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
      duration: 60,
      timezone: 'Europe/Paris',
    },
  });
  const meetingId = created.json<{ meetingId: string }>().meetingId;
  const invitees = Array.from({ length: N }, (_, i) => ({
    email: `p${run}-${i}@example.org`,
    name: `P ${i}`,
  }));
  const before = smtp.received();
  const started = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/meetings/invitations',
    headers: { cookie: host.cookie },
    payload: { meetingId, invitees },
  });
  const answerMs = performance.now() - started;
  if (res.statusCode !== 200 || res.json<{ sent: number }>().sent !== N) throw new Error(res.body);
  while (smtp.received() - before < N) await new Promise((r) => setTimeout(r, 10));
  const allDeliveredMs = performance.now() - started;

  // The old way: every message through the transport before answering.
  const inlineStart = performance.now();
  for (const to of invitees) {
    await t.app.mailTransport.send({ to, subject: 'All hands', text: 'Join', html: '<p>Join</p>' });
  }
  const inlineSendMs = performance.now() - inlineStart;
  return { answerMs, allDeliveredMs, inlineSendMs };
}

async function measure(kind: 'pglite' | 'postgres') {
  if (kind === 'postgres') {
    process.env.PARLEY_TEST_DB = 'postgres';
    process.env.TEST_DATABASE_URL = adminUrl;
  } else delete process.env.PARLEY_TEST_DB;
  const smtp = await startSmtp();
  const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, LOG_LEVEL: 'warn' });
  try {
    const runs: Awaited<ReturnType<typeof oneRun>>[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await oneRun(t, smtp, run));
    const pick = (k: keyof Awaited<ReturnType<typeof oneRun>>) => Math.round(median(runs.map((r) => r[k])));
    return {
      runs: RUNS,
      answerMsMedian: pick('answerMs'),
      allDeliveredMsMedian: pick('allDeliveredMs'),
      inlineSendMsMedian: pick('inlineSendMs'),
      answerMs: runs.map((r) => Math.round(r.answerMs)),
    };
  } finally {
    await t.close();
    smtp.server.close();
  }
}

const pglite = await measure('pglite');
console.log('pglite', pglite);
const postgres = await measure('postgres');
console.log('postgres', postgres);
const file = recordResult('mail-queue', {
  recipients: N,
  note: 'in-process (app.inject); SMTP to smtp-server on loopback; the first run includes pg-boss creating its schema',
  pglite,
  postgres,
});
console.log(file);
