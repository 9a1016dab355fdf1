import type { ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createFreeTimeService, type ClockParticipant, type FreeTimeDeps } from './free-time.js';
import { DEFAULT_RULES } from './clock.js';
import { FakeClock } from './testing/fake-clock.js';

const MIN = 60_000;
/** Ann's card, saved in her browser (the owner key is her clock's). */
const ann = { id: 'acct-1', ownerKey: 'guest:k-ann' };
const log = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
} as unknown as FastifyBaseLogger;

/** The billing tables in memory, with the ledger's unique (meeting, clock, minute). */
function memoryRepo() {
  const clocks = new Map<
    string,
    { usedMs: number; overageAccountId: string | null; clientAddress: string | null }
  >();
  const ledger = new Map<string, { accountId: string; minute: number; clockKey: string }>();
  const covered = new Set<string>();
  const repo: FreeTimeDeps['repo'] = {
    async findClock(meetingId, clockKey) {
      const c = clocks.get(`${meetingId}|${clockKey}`);
      return c
        ? {
            meetingId,
            clockKey,
            usedMs: c.usedMs,
            overageAccountId: c.overageAccountId,
            clientAddress: c.clientAddress,
            updatedAt: new Date(),
          }
        : null;
    },
    async saveClock(meetingId, clockKey, usedMs, clientAddress = null) {
      const k = `${meetingId}|${clockKey}`;
      const c = clocks.get(k) ?? { usedMs: 0, overageAccountId: null, clientAddress };
      clocks.set(k, { ...c, usedMs: Math.max(c.usedMs, Math.round(usedMs)) });
    },
    async setOverageAccount(meetingId, clockKey, accountId) {
      const k = `${meetingId}|${clockKey}`;
      const c = clocks.get(k) ?? { usedMs: 0, overageAccountId: null, clientAddress: null };
      clocks.set(k, { ...c, overageAccountId: accountId });
    },
    async addressRanOut(meetingId, clientAddress, freeMs) {
      return [...clocks].some(
        ([k, c]) =>
          k.startsWith(`${meetingId}|`) &&
          !k.startsWith(`${meetingId}|user:`) &&
          c.clientAddress === clientAddress &&
          c.usedMs >= freeMs &&
          c.overageAccountId === null,
      );
    },
    async chargedMinutes(meetingId, clockKey) {
      let n = 0;
      for (const [k, v] of ledger) if (k.startsWith(`${meetingId}|${clockKey}|`)) n = Math.max(n, v.minute);
      return n;
    },
    async chargeMinute(e) {
      const k = `${e.meetingId}|${e.clockKey}|${e.minute}`;
      if (ledger.has(k)) return null;
      ledger.set(k, { accountId: e.accountId, minute: e.minute, clockKey: e.clockKey });
      return `ledger-${ledger.size}`;
    },
    async coverEveryone(meetingId) {
      return covered.has(meetingId);
    },
  };
  return { repo, clocks, ledger, covered };
}

/** A free-time service over a fake clock and room: who is in, what they heard, who was sent away. */
function setup(store = memoryRepo()) {
  const clock = new FakeClock();
  const people = new Map<string, ClockParticipant>();
  const pro = new Set<string>();
  const heard: Array<{ to: string; message: ServerMessage }> = [];
  /** What the meeting's hosts heard (guest_free_time). */
  const hosts: ServerMessage[] = [];
  const expelled: string[] = [];
  const reported: number[] = [];
  const state = { failPro: false };
  const service = createFreeTimeService({
    repo: store.repo,
    rules: DEFAULT_RULES,
    timers: clock,
    participant: async (_roomId, id) => people.get(id) ?? null,
    isPro: async (userId) => {
      if (state.failPro) throw new Error('database down');
      return pro.has(userId);
    },
    send: (_roomId, to, message) => heard.push({ to, message }),
    tellHosts: (_roomId, message) => hosts.push(message),
    async expel(_roomId, id) {
      expelled.push(id);
      void service.gone(id);
    },
    charged: async ({ minute }) => {
      reported.push(minute);
    },
    log,
  });
  clock.settle = () => service.idle();
  const join = async (id: string, who: Partial<ClockParticipant> = {}) => {
    people.set(id, {
      userId: null,
      email: null,
      sessionKey: `guest:${id}`,
      publicMeetingId: '123-456-789',
      hostId: 'u-host',
      ...who,
    });
    await service.present('room-1', id);
    await service.idle();
  };
  /** The last free_time state `id` heard. */
  const last = (id: string) => {
    const m = heard.filter((h) => h.to === id && h.message.type === 'free_time').at(-1)?.message;
    if (!m || m.type !== 'free_time') throw new Error(`${id} heard no free_time`);
    return m.freeTime;
  };
  return {
    clock,
    service,
    people,
    pro,
    heard,
    hosts,
    expelled,
    reported,
    join,
    last,
    store,
    /** The Pro look-up fails (a database outage) while true. */
    set failPro(on: boolean) {
      state.failPro = on;
    },
  };
}

describe('the free-time clock (fake clock)', () => {
  it('counts 45 minutes: hint at 10 left, prompt and warning at 40, grace at 45, removal after 30 s', async () => {
    const s = setup();
    await s.join('ann', { browserKey: 'k-ann' });
    expect(s.last('ann')).toMatchObject({
      mode: 'free',
      remainingMs: 45 * MIN,
      prompt: false,
      upgradeHint: false,
    });

    await s.clock.advance(35 * MIN - 1);
    expect(s.last('ann')).toMatchObject({ mode: 'free', upgradeHint: false, warning: false, prompt: false });
    await s.clock.advance(2);
    expect(s.last('ann')).toMatchObject({ mode: 'free', upgradeHint: true, warning: false, prompt: false });

    await s.clock.advance(5 * MIN - 2);
    expect(s.last('ann')).toMatchObject({ prompt: false, warning: false });
    await s.clock.advance(2);
    expect(s.last('ann')).toMatchObject({ mode: 'free', prompt: true, warning: true, upgradeHint: true });
    expect(s.last('ann').remainingMs).toBeLessThanOrEqual(5 * MIN);

    await s.clock.advance(5 * MIN - 2);
    expect(s.last('ann').mode).toBe('free');
    await s.clock.advance(2);
    expect(s.last('ann')).toMatchObject({ mode: 'grace', remainingMs: 0, graceMs: 30_000 });
    expect(s.last('ann').graceRemainingMs).toBeGreaterThan(29_000);

    await s.clock.advance(30_000 - 10);
    expect(s.expelled).toEqual([]);
    await s.clock.advance(10);
    expect(s.expelled).toEqual(['ann']);
    // Nothing is left running once the participant is gone.
    expect(s.clock.pending).toBe(0);
  });

  it('the hosts hear once when a counted guest has 5 minutes left, and once when the free time ran out', async () => {
    const s = setup();
    await s.join('ann', { browserKey: 'k-ann', name: 'Ann' });
    await s.clock.advance(40 * MIN - 1);
    expect(s.hosts).toEqual([]);
    await s.clock.advance(2);
    expect(s.hosts).toEqual([
      expect.objectContaining({
        type: 'guest_free_time',
        participantId: 'ann',
        name: 'Ann',
        stage: 'ending',
      }),
    ]);
    expect((s.hosts[0] as { remainingMs: number }).remainingMs).toBeLessThanOrEqual(5 * MIN);
    // The minute ticks in between tell the guest, not the hosts again.
    await s.clock.advance(5 * MIN - 2);
    expect(s.hosts).toHaveLength(1);
    await s.clock.advance(2);
    expect(s.hosts).toHaveLength(2);
    expect(s.hosts[1]).toMatchObject({ stage: 'ended', name: 'Ann', remainingMs: 0, graceMs: 30_000 });
    await s.clock.advance(30_000);
    expect(s.expelled).toEqual(['ann']);
    expect(s.hosts).toHaveLength(2);
  });

  it("the hosts hear nothing of a covered guest, of a paying one, or of the host's own clock", async () => {
    const s = setup();
    s.pro.add('u-host');
    s.store.covered.add('room-1');
    await s.join('cy', { browserKey: 'k-cy', name: 'Cy' });
    // The host without Pro on their own meeting's clock (the cover needs the host's Pro: lapsed).
    s.pro.delete('u-host');
    await s.join('host', { userId: 'u-host', name: 'Hana' });
    await s.clock.advance(MIN + 1);
    expect(s.last('cy').mode).toBe('free');
    await s.clock.advance(44 * MIN);
    // Cy's clock, counted since the lapse, is at the warning; the host's own clock is not told.
    expect(s.hosts.map((m) => (m as { name: string }).name)).toEqual(['Cy']);
    await s.clock.advance(2 * MIN);
    expect(s.hosts.map((m) => (m as { stage: string }).stage)).toEqual(['ending', 'ended']);
  });

  it('ticks every minute while it runs', async () => {
    const s = setup();
    await s.join('ann');
    const before = s.heard.length;
    // Each tick acts a millisecond after its minute, never before it.
    await s.clock.advance(10 * MIN + 1);
    expect(s.heard.length - before).toBe(10);
  });

  it('a Pro participant has unlimited time: told so once, never counted, never removed', async () => {
    const s = setup();
    s.pro.add('u-pro');
    await s.join('pat', { userId: 'u-pro' });
    expect(s.last('pat')).toMatchObject({ mode: 'unlimited', reason: 'pro' });
    await s.clock.advance(3 * 60 * MIN);
    expect(s.expelled).toEqual([]);
    expect(s.heard.filter((h) => h.to === 'pat')).toHaveLength(1);
    expect(s.clock.pending).toBe(0);
  });

  it('leaving and rejoining (a new participant, the same browser) keeps the clock; time away is not counted', async () => {
    const s = setup();
    await s.join('ann-1', { browserKey: 'k-ann' });
    await s.clock.advance(10 * MIN);
    await s.service.gone('ann-1');
    await s.clock.advance(60 * MIN);
    await s.join('ann-2', { browserKey: 'k-ann' });
    expect(s.last('ann-2').elapsedMs).toBe(10 * MIN);
    expect(s.last('ann-2').remainingMs).toBe(35 * MIN);
    // Another browser is another person.
    await s.join('bob', { browserKey: 'k-bob' });
    expect(s.last('bob').elapsedMs).toBe(0);
  });

  it('a restart keeps the clock: the time is saved on every tick', async () => {
    const store = memoryRepo();
    const first = setup(store);
    await first.join('ann', { userId: 'u-ann' });
    await first.clock.advance(20 * MIN + 30_000);
    await first.service.shutdown();
    const second = setup(store);
    await second.join('ann-again', { userId: 'u-ann' });
    expect(second.last('ann-again').elapsedMs).toBe(20 * MIN + 30_000);
  });

  it('a clock whose free time and grace are used up sends a returning participant away at once', async () => {
    const s = setup();
    await s.join('ann', { browserKey: 'k-ann' });
    await s.clock.advance(46 * MIN);
    expect(s.expelled).toEqual(['ann']);
    await s.join('ann-back', { browserKey: 'k-ann' });
    expect(s.expelled).toEqual(['ann', 'ann-back']);
  });

  it('a card saved during the grace: every started minute past 45 is charged once, and it stays', async () => {
    const s = setup();
    await s.join('ann', { browserKey: 'k-ann' });
    await s.clock.advance(45 * MIN + 10_000);
    expect(s.last('ann').mode).toBe('grace');
    const state = await s.service.startOverage('room-1', 'ann', ann);
    expect(state).toMatchObject({ mode: 'overage', overageMinutes: 1, overageCents: 10, prompt: false });
    await s.clock.advance(60_000);
    expect(s.last('ann')).toMatchObject({ mode: 'overage', overageMinutes: 2, overageCents: 20 });
    await s.clock.advance(3 * MIN);
    expect(s.expelled).toEqual([]);
    expect(s.last('ann').overageMinutes).toBe(5);
    expect([...s.store.ledger.values()].map((e) => e.minute)).toEqual([1, 2, 3, 4, 5]);
    expect(s.reported).toEqual([1, 2, 3, 4, 5]);
  });

  it('the ledger charges a minute once across a reconnect and two sockets of the same person', async () => {
    const s = setup();
    await s.join('tab-1', { userId: 'u-ann' });
    await s.join('tab-2', { userId: 'u-ann' });
    await s.service.startOverage('room-1', 'tab-1', { id: 'acct-1', ownerKey: 'user:u-ann' });
    await s.clock.advance(47 * MIN - 1);
    // Two sockets: one clock, 47 minutes used, not 94.
    expect(s.last('tab-2')).toMatchObject({ mode: 'overage', overageMinutes: 2 });
    // A reconnect: both sockets drop and come back.
    await s.service.absent('tab-1');
    await s.service.absent('tab-2');
    await s.join('tab-1', { userId: 'u-ann' });
    await s.join('tab-2', { userId: 'u-ann' });
    await s.clock.advance(2);
    expect(s.last('tab-1').overageMinutes).toBe(3);
    const minutes = [...s.store.ledger.values()].map((e) => e.minute);
    expect(minutes).toEqual([1, 2, 3]);
    expect(new Set(minutes).size).toBe(minutes.length);
  });

  it('a Pro host covering everyone stops the clocks; turning it off runs them again from where they were', async () => {
    const s = setup();
    s.pro.add('u-host');
    await s.join('ann', { browserKey: 'k-ann' });
    await s.clock.advance(30 * MIN);
    s.store.covered.add('room-1');
    await s.service.setCovered('room-1', true);
    expect(s.last('ann')).toMatchObject({ mode: 'unlimited', reason: 'covered' });
    await s.clock.advance(120 * MIN);
    expect(s.expelled).toEqual([]);
    await s.join('bob', { browserKey: 'k-bob' });
    expect(s.last('bob')).toMatchObject({ mode: 'unlimited', reason: 'covered' });
    s.store.covered.delete('room-1');
    await s.service.setCovered('room-1', false);
    expect(s.last('ann')).toMatchObject({ mode: 'free', elapsedMs: 30 * MIN });
    await s.clock.advance(15 * MIN + 30_000 + 1);
    expect(s.expelled).toContain('ann');
  });

  it("the cover ends with the host's Pro: counted from the next minute, never for a host without Pro", async () => {
    const s = setup();
    s.pro.add('u-host');
    s.store.covered.add('room-1');
    await s.join('ann', { browserKey: 'k-ann' });
    await s.clock.advance(60 * MIN);
    expect(s.last('ann')).toMatchObject({ mode: 'unlimited', reason: 'covered' });
    // The host's subscription lapses; the cover stays switched on.
    s.pro.delete('u-host');
    await s.clock.advance(MIN + 1);
    expect(s.last('ann')).toMatchObject({ mode: 'free', elapsedMs: 0 });
    await s.clock.advance(45 * MIN + 30_000 + 1);
    expect(s.expelled).toEqual(['ann']);
    // A newcomer in a meeting whose host has no Pro is counted from the start.
    await s.join('bob', { browserKey: 'k-bob' });
    expect(s.last('bob').mode).toBe('free');
  });

  it('buying Pro during the meeting stops the clock at the next tick, even in the grace', async () => {
    const s = setup();
    await s.join('ann', { userId: 'u-ann' });
    await s.join('bob', { userId: 'u-bob' });
    await s.clock.advance(45 * MIN + 5_000);
    expect(s.last('ann').mode).toBe('grace');
    s.pro.add('u-ann');
    await s.clock.advance(30_000);
    // Bob, still free, is sent away; Ann, Pro now, stays and hears unlimited time.
    expect(s.expelled).toEqual(['bob']);
    expect(s.last('ann')).toMatchObject({ mode: 'unlimited', reason: 'pro' });
    const heardBefore = s.heard.length;
    await s.clock.advance(120 * MIN);
    expect(s.expelled).toEqual(['bob']);
    expect(s.heard.length).toBe(heardBefore);
    expect(s.service.stateOf('ann')).toMatchObject({ mode: 'unlimited', reason: 'pro' });
    expect(s.clock.pending).toBe(0);
  });

  it('a failed Pro look-up does not stop the clock', async () => {
    const s = setup();
    s.failPro = true;
    await s.join('ann', { userId: 'u-ann' });
    await s.clock.advance(46 * MIN);
    expect(s.expelled).toEqual(['ann']);
  });

  it('billing started after an upgrade answers unlimited time', async () => {
    const s = setup();
    await s.join('ann', { userId: 'u-ann' });
    await s.clock.advance(45 * MIN + 1_000);
    s.pro.add('u-ann');
    const state = await s.service.startOverage('room-1', 'ann', { id: 'acct-1', ownerKey: 'user:u-ann' });
    expect(state).toMatchObject({ mode: 'unlimited', reason: 'pro' });
    expect(s.store.ledger.size).toBe(0);
  });

  it('billing cannot start for someone who is not in the room', async () => {
    const s = setup();
    await expect(s.service.startOverage('room-1', 'nobody', ann)).rejects.toMatchObject({
      statusCode: 409,
    });
  });
  it('a typed e-mail reaches nobody: same e-mail, another browser, another clock; its card is refused', async () => {
    const s = setup();
    await s.join('ann', { browserKey: 'k-ann', email: 'ann@example.com' });
    await s.service.startOverage('room-1', 'ann', ann);
    await s.clock.advance(20 * MIN);
    await s.service.gone('ann');
    await s.join('mallory', { browserKey: 'k-mal', email: 'ann@example.com', clientAddress: '10.0.0.9' });
    expect(s.last('mallory')).toMatchObject({ mode: 'free', elapsedMs: 0 });
    await expect(s.service.startOverage('room-1', 'mallory', ann)).rejects.toMatchObject({ statusCode: 403 });
    await s.clock.advance(46 * MIN);
    expect(s.expelled).toEqual(['mallory']);
    expect(s.store.ledger.size).toBe(0);
  });

  it("where a guest's free time ran out, a new guest from that address starts with only the grace", async () => {
    const s = setup();
    await s.join('gus', { browserKey: 'k-1', clientAddress: '10.0.0.1' });
    await s.join('office', { browserKey: 'k-2', clientAddress: '10.0.0.1' });
    await s.clock.advance(46 * MIN);
    expect(s.expelled).toEqual(['gus', 'office']);
    await s.join('gus-again', { browserKey: 'k-3', browserId: 'new-browser', clientAddress: '10.0.0.1' });
    expect(s.last('gus-again')).toMatchObject({ mode: 'grace', remainingMs: 0 });
    await s.clock.advance(30_001);
    expect(s.expelled).toContain('gus-again');
    // Another address, and a signed-in person on the same address, get their own 45 minutes.
    await s.join('elsewhere', { browserKey: 'k-4', clientAddress: '10.0.0.2' });
    expect(s.last('elsewhere')).toMatchObject({ mode: 'free', elapsedMs: 0 });
    await s.join('signed-in', { userId: 'u-sig', clientAddress: '10.0.0.1' });
    expect(s.last('signed-in')).toMatchObject({ mode: 'free', elapsedMs: 0 });
  });
});
