import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, transcriptLines } from '../../src/db/schema/index.js';
import { fakeEngines } from '../../src/modules/ai/testing.js';
import { CHAT_LIMITS } from '../../src/modules/chat/limits.js';
import { WorkerSummarizer } from '../../src/providers/summaries/worker.js';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, issue 34 item 1: three anonymous guests sent 300 chat messages of ~1,800
 * characters in 4 s, and the host's Generate Summary then stopped every request of the instance
 * (health included) for 21.9 s. The same attack on a real server on loopback, beside the use it
 * must not spoil: a 3-hour meeting of 2,000 transcript lines and 1,000 chat messages (the keyed
 * bench meetings, one after another) gets a useful summary while /api/health is polled throughout.
 */
const benchRoot = fileURLToPath(new URL('../../../../bench', import.meta.url));
const MEETING_DATE = '2026-11-23T09:00:00Z';
const THREE_HOURS = 3 * 3600_000;

interface KeyedLine {
  id: string;
  speaker: string;
  text: string;
}
interface KeyedAction {
  owner: string | null;
  /** The id of the line the key names. */
  lineId: string;
}

/** Whole keyed meetings, in file order, until `count` lines: their lines and their key's actions. */
function keyedMeetings(dirs: string[], count: number, skipMeetings = 0) {
  const lines: KeyedLine[] = [];
  const actions: KeyedAction[] = [];
  let skipped = 0;
  for (const dir of dirs) {
    for (const file of readdirSync(path.join(benchRoot, dir))
      .filter((f) => f.endsWith('.txt'))
      .sort()) {
      if (skipped++ < skipMeetings) continue;
      const text = readFileSync(path.join(benchRoot, dir, file), 'utf8').split('\n');
      const key = JSON.parse(
        readFileSync(path.join(benchRoot, dir, file.replace(/\.txt$/, '.key.json')), 'utf8'),
      ) as {
        actionItems: Array<{ owner: string | null; line: number }>;
      };
      const ids = new Map<number, string>();
      text.forEach((raw, i) => {
        const m = /^\s*([^:]{1,60}?):\s+(.*)$/.exec(raw);
        if (!m || lines.length >= count) return;
        const id = randomUUID();
        ids.set(i + 1, id);
        lines.push({ id, speaker: m[1]!.trim(), text: m[2]!.trim() });
      });
      for (const a of key.actionItems) {
        const lineId = ids.get(a.line);
        if (lineId) actions.push({ owner: a.owner, lineId });
      }
      if (lines.length >= count) return { lines, actions };
    }
  }
  return { lines, actions };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

let t: TestContext;
let http: string;
let ws: string;
const sockets: TestSocket[] = [];
const summarizer = new WorkerSummarizer();

beforeAll(async () => {
  t = await createTestApp({}, undefined, { ai: { ...fakeEngines(), summarizer } });
  ({ http, ws } = await listen(t));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe('a summary cannot freeze the server', () => {
  it('a chat flood is refused past the caps; a 3-hour meeting is summarised while health answers', async () => {
    const host = await signIn(t, { email: 'hana@example.com', firstName: 'Hana' });
    await makePro(t, host.userId);
    const meeting = await createMeeting(t, { hostId: host.userId, title: 'Quarterly planning' });

    // The meeting as it was said: 2,000 transcript lines, 1,000 chat messages, over three hours.
    const dirs = readdirSync(benchRoot)
      .filter((d) => /^meetings(-blind(-\d+)?)?$/.test(d))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const speech = keyedMeetings(dirs, 2000);
    const speakers = new Set(speech.lines.map((l) => l.speaker)).size; // only for the log
    const chatSource = keyedMeetings(dirs.slice().reverse(), 1000);
    expect(speech.lines).toHaveLength(2000);
    expect(chatSource.lines).toHaveLength(1000);
    const start = Date.parse(MEETING_DATE);
    const at = (i: number, n: number) => new Date(start + Math.round((i * THREE_HOURS) / n));
    for (let i = 0; i < speech.lines.length; i += 500) {
      await t.db.db.insert(transcriptLines).values(
        speech.lines.slice(i, i + 500).map((l, k) => ({
          id: l.id,
          meetingId: meeting.id,
          participantId: `p-${l.speaker}`,
          speakerName: l.speaker,
          text: l.text,
          language: 'en',
          startedAt: at(i + k, 2000),
          endedAt: at(i + k + 1, 2000),
        })),
      );
    }
    for (let i = 0; i < chatSource.lines.length; i += 500) {
      await t.db.db.insert(chatMessages).values(
        chatSource.lines.slice(i, i + 500).map((l, k) => ({
          id: l.id,
          meetingId: meeting.id,
          senderId: `p-${l.speaker}`,
          senderName: l.speaker,
          content: l.text,
          createdAt: new Date(at(i + k, 1000).getTime() + 1_700),
        })),
      );
    }

    // The attack: three guests, 100 messages each of ~1,800 characters, in 4 s.
    const guests = await Promise.all(
      ['Anon 1', 'Anon 2', 'Anon 3'].map((name) => enter(t, ws, meeting.meetingId, { name })),
    );
    sockets.push(...guests.map((g) => g.socket));
    const filler = speech.lines
      .slice(0, 40)
      .map((l) => l.text)
      .join(' ')
      .slice(0, 1_780);
    await Promise.all(
      guests.map(async (g, gi) => {
        for (let i = 0; i < 100; i += 1) {
          g.socket.send({ type: 'chat_message', requestId: `g${gi}-${i}`, content: `${i} ${filler}` });
          await sleep(40);
        }
      }),
    );
    await sleep(500);
    let accepted = 0;
    for (const [gi, g] of guests.entries()) {
      const mine = g.socket.received.filter(
        (m) => 'requestId' in m && typeof m.requestId === 'string' && m.requestId.startsWith(`g${gi}-`),
      );
      const sent = mine.filter((m) => m.type === 'chat_message').length;
      const refused = mine.filter((m) => m.type === 'error');
      expect(sent + refused.length).toBe(100);
      // ~12,000 characters of burst and 200 a second over the 4 s: about 7 of the 100.
      const cap = Math.ceil((CHAT_LIMITS.perParticipant.characters.burst + 5 * 200) / 1_780);
      expect(sent).toBeLessThanOrEqual(cap);
      expect(sent).toBeGreaterThan(0);
      expect(refused[0]).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(
          /^You are sending messages too fast\. Wait \d+ seconds? and try again\.$/,
        ),
      });
      accepted += sent;
    }

    // The host's summary, with /api/health asked every 20 ms until it answers.
    const latencies: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const t0 = performance.now();
        const res = await fetch(`${http}/api/health`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        expect(res.status).toBe(200);
        await sleep(20);
      }
    })();
    const t0 = performance.now();
    const res = await fetch(`${http}/api/meetings/${meeting.meetingId}/summary`, {
      method: 'POST',
      headers: { cookie: host.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ participants: ['Hana'] }),
    });
    const summaryMs = performance.now() - t0;
    done = true;
    await poll;
    const body = (await res.json()) as {
      summary: string;
      keyPoints: unknown[];
      actionItems: Array<{ owner: string | null; sources: string[] }>;
      decisions: unknown[];
      sourceLines: number;
    };
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    const max = sorted.at(-1)!;
    // Useful: it read the whole meeting and found the keyed action items (owner and line).
    const found = (a: KeyedAction) =>
      body.actionItems.some((item) => item.owner === a.owner && item.sources.includes(a.lineId));
    const keyed = [...speech.actions, ...chatSource.actions];
    const recall = keyed.filter(found).length / keyed.length;
    console.log(
      `summary of ${body.sourceLines} lines (${speakers} speakers, ${accepted} flood messages kept) in ` +
        `${Math.round(summaryMs)} ms: ${body.actionItems.length} action items, ${body.decisions.length} decisions, ` +
        `keyed action items found ${Math.round(recall * 100)}% of ${keyed.length}; ` +
        `/api/health ${latencies.length} answers, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    expect(body.sourceLines).toBe(3000 + accepted);
    expect(body.keyPoints.length).toBeGreaterThanOrEqual(2);
    expect(body.decisions.length).toBeGreaterThan(20);
    expect(recall).toBeGreaterThan(0.6);
    expect(summaryMs).toBeLessThan(30_000);
    expect(latencies.length).toBeGreaterThan(10);
    // Not frozen (the attack froze it 21.9 s). The 50 ms target is measured by
    // bench/summary-load.ts on a quiet machine; this run shares 2 cores with other suites.
    expect(max).toBeLessThan(1_000);

    // At once again: the meeting's cooldown answers, saying when.
    const again = await fetch(`${http}/api/meetings/${meeting.meetingId}/summary`, {
      method: 'POST',
      headers: { cookie: host.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await again.json()) as { message: string }).message).toMatch(
      /^A summary of this meeting was just made\. You can make a new one in \d+ seconds?\.$/,
    );
  }, 60_000);
});
