import { FREE_TIER, type FreeTimeState, type ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import {
  clockKeyOf,
  clockState,
  freeMsOf,
  isExhausted,
  nextActionInMs,
  startedOverageMinutes,
  unlimitedState,
  USER_CLOCK_KEY,
  type ClockRules,
} from './clock.js';
import type { BillingRepository } from './repository.js';

export const OVERAGE_NOT_OWNER_MESSAGE =
  'This card can pay only for its owner: save a card in this browser, or sign in';

/** The clock's time source and timers: the real ones, or a test's fake clock. */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A participant as the clock needs it (null: gone, or the development test room). */
export interface ClockParticipant {
  userId: string | null;
  email: string | null;
  sessionKey: string;
  publicMeetingId: string;
  /** The browser's own id it joined with, if any (the clock key of a guest refusing cookies). */
  browserId?: string | null;
  /** SHA-256 of the guest's browser secret (its clock key), and the address it joined from. */
  browserKey?: string | null;
  clientAddress?: string | null;
  /** The meeting's host: "cover everyone" is in force only while the host has Pro. */
  hostId?: string | null;
  /** The display name the hosts are told when this person's free time runs low. */
  name?: string;
}

export interface FreeTimeDeps {
  repo: Pick<
    BillingRepository,
    | 'findClock'
    | 'saveClock'
    | 'setOverageAccount'
    | 'chargedMinutes'
    | 'chargeMinute'
    | 'coverEveryone'
    | 'addressRanOut'
  >;
  rules: ClockRules;
  timers: Timers;
  participant(roomId: string, participantId: string): Promise<ClockParticipant | null>;
  isPro(userId: string): Promise<boolean>;
  /** A message to one participant's socket. */
  send(roomId: string, participantId: string, message: ServerMessage): void;
  /** A message to the meeting's hosts (a guest's free time about to end or run out). */
  tellHosts(roomId: string, message: ServerMessage): void;
  /** Sends a participant whose free time and grace ran out away (free_time_ended, 4020). */
  expel(roomId: string, participantId: string): Promise<void>;
  /** A minute was written to the ledger: report it to the payments provider. */
  charged(entry: {
    ledgerId: string;
    accountId: string;
    publicMeetingId: string;
    minute: number;
  }): Promise<void>;
  log: FastifyBaseLogger;
}

/** One person's clock in one meeting while at least one of their participants is in it. */
interface LiveClock {
  readonly id: string;
  readonly roomId: string;
  readonly key: string;
  readonly publicMeetingId: string;
  /** Participants (sockets in the room) of this person: the clock runs once however many. */
  readonly members: Set<string>;
  /** Time used before `runningSince`. */
  usedMs: number;
  runningSince: number | null;
  overageAccountId: string | null;
  chargedMinutes: number;
  covered: boolean;
  /** The meeting's host, whose Pro "cover everyone" needs (checked at every tick). */
  readonly hostId: string | null;
  /** The name the hosts hear, and the last stage they were told of (once per stage). */
  name: string;
  hostsTold: 'ending' | 'ended' | null;
  timer: unknown;
}

/**
 * The free tier's clock, kept by the server (spec §4, §9; DESIGN.md): for every participant
 * without Pro it counts the time used in the meeting, per person (account, else the join form's
 * e-mail, else the browser), persisted on every tick so that leaving, rejoining, reloading or a
 * restart does not reset it. It runs while one of the person's participants is in the room (two
 * sockets count once). It tells the participant its state (`free_time`) at each threshold and
 * minute tick, sends it away when the free time and grace ran out without a card, and once
 * billing started charges every started minute past the free time in the ledger, once.
 * Every change runs in one queue, so ticks, arrivals and departures never interleave.
 */
export function createFreeTimeService(deps: FreeTimeDeps) {
  const { rules, timers, repo, log } = deps;
  const clocks = new Map<string, LiveClock>();
  /** Participant → its clock's id. */
  const clockOf = new Map<string, string>();
  /** Participants whose time is unlimited because they have Pro. */
  const pro = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  function run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const next = queue.then(fn);
    queue = next.catch((err: unknown) => log.error({ err }, `free-time clock: ${what} failed`));
    return next;
  }

  const elapsedOf = (c: LiveClock): number =>
    c.usedMs + (c.runningSince === null ? 0 : timers.now() - c.runningSince);

  function stateOf(c: LiveClock): FreeTimeState {
    if (c.covered) return unlimitedState('covered', rules);
    return clockState(
      elapsedOf(c),
      {
        overage: c.overageAccountId !== null,
        chargedMinutes: c.chargedMinutes,
        running: c.runningSince !== null,
      },
      rules,
    );
  }

  function tell(c: LiveClock): void {
    const freeTime = stateOf(c);
    for (const id of c.members) deps.send(c.roomId, id, { type: 'free_time', freeTime });
    tellHosts(c, freeTime);
  }

  /**
   * The hosts hear when a participant's counted free time is about to end (the warning, 5
   * minutes left) and when it has run out (the grace), once per stage: a host whose meeting does
   * not cover its guests is not surprised by someone cut off at 45 minutes (issue 37 item 3).
   * Nothing for the host's own clock, a covered or a paying one.
   */
  function tellHosts(c: LiveClock, s: FreeTimeState): void {
    if (c.hostId && c.key === `${USER_CLOCK_KEY}${c.hostId}`) return;
    const stage = s.mode === 'grace' ? 'ended' : s.mode === 'free' && s.warning ? 'ending' : null;
    if (!stage || c.hostsTold === stage || (stage === 'ending' && c.hostsTold === 'ended')) return;
    const [participantId] = c.members;
    if (!participantId) return;
    c.hostsTold = stage;
    deps.tellHosts(c.roomId, {
      type: 'guest_free_time',
      participantId,
      name: c.name,
      stage,
      remainingMs: s.remainingMs,
      minutesLeft: Math.ceil(s.remainingMs / s.minuteMs),
      graceMs: s.graceMs,
    });
  }

  function stop(c: LiveClock): void {
    if (c.timer !== null) timers.clearTimeout(c.timer);
    c.timer = null;
    if (c.runningSince !== null) {
      c.usedMs += timers.now() - c.runningSince;
      c.runningSince = null;
    }
  }

  function schedule(c: LiveClock): void {
    if (c.timer !== null) timers.clearTimeout(c.timer);
    c.timer = null;
    if (closed || (!c.covered && c.runningSince === null)) return;
    // One millisecond late rather than early: the threshold has always passed when it acts. A
    // covered clock looks again every minute whether the cover still holds.
    const ms = c.covered
      ? rules.minuteMs
      : nextActionInMs(elapsedOf(c), c.overageAccountId !== null, rules) + 1;
    c.timer = timers.setTimeout(() => {
      c.timer = null;
      void run('tick', () => act(c));
    }, ms);
  }

  /** Charges every started minute past the free time not charged yet (the ledger keeps it once). */
  async function charge(c: LiveClock, elapsedMs: number): Promise<void> {
    const accountId = c.overageAccountId;
    if (!accountId) return;
    const due = startedOverageMinutes(elapsedMs, rules);
    for (let minute = c.chargedMinutes + 1; minute <= due; minute++) {
      const ledgerId = await repo.chargeMinute({
        meetingId: c.roomId,
        publicMeetingId: c.publicMeetingId,
        clockKey: c.key,
        minute,
        accountId,
        amountCents: FREE_TIER.overageCentsPerMinute,
      });
      c.chargedMinutes = minute;
      if (ledgerId) {
        deps
          .charged({ ledgerId, accountId, publicMeetingId: c.publicMeetingId, minute })
          .catch((err: unknown) => log.error({ err, ledgerId }, 'could not report overage usage'));
      }
    }
  }

  /**
   * A failed look-up counts as "not Pro": the clock must keep running (a database outage must not
   * hand out unlimited time, nor stop the ticks), and a missed Pro is seen at the next tick.
   */
  function hasPro(userId: string): Promise<boolean> {
    return deps.isPro(userId).catch((err: unknown) => {
      log.warn({ err }, 'free-time clock: could not check Pro; counting on');
      return false;
    });
  }

  /**
   * A signed-in person who bought Pro during the meeting: the clock stops for good and each of
   * their participants hears unlimited time. Checked on every tick (at most a minute late, and
   * always before the grace would send them away), so nobody has to rejoin after upgrading.
   */
  async function upgradedToPro(c: LiveClock): Promise<boolean> {
    const userId = c.key.startsWith(USER_CLOCK_KEY) ? c.key.slice(USER_CLOCK_KEY.length) : null;
    if (!userId || !(await hasPro(userId))) return false;
    stop(c);
    await repo.saveClock(c.roomId, c.key, c.usedMs);
    clocks.delete(c.id);
    for (const id of c.members) {
      clockOf.delete(id);
      pro.add(id);
      deps.send(c.roomId, id, { type: 'free_time', freeTime: unlimitedState('pro', rules) });
    }
    return true;
  }

  /**
   * "Cover everyone" is in force: the host turned it on AND has Pro now. Checked when it is used
   * (a clock opens, and every minute while it covers), not only when it was switched on: the
   * security review saw it outlive the host's lapsed subscription.
   */
  async function coverInForce(roomId: string, hostId: string | null): Promise<boolean> {
    if (!hostId || !(await repo.coverEveryone(roomId))) return false;
    return hasPro(hostId);
  }

  /** The clock's tick: save, charge, send away or tell, and wait for the next action. */
  async function act(c: LiveClock): Promise<void> {
    if (clocks.get(c.id) !== c) return;
    if (c.covered) {
      if (await coverInForce(c.roomId, c.hostId)) return schedule(c);
      // The host's Pro ended (or the cover was turned off elsewhere): counting starts now.
      c.covered = false;
      c.runningSince = timers.now();
    }
    if (await upgradedToPro(c)) return;
    const elapsed = elapsedOf(c);
    await repo.saveClock(c.roomId, c.key, elapsed);
    await charge(c, elapsed);
    if (isExhausted(elapsed, c.overageAccountId !== null, rules)) {
      stop(c);
      const members = [...c.members];
      clocks.delete(c.id);
      for (const id of members) clockOf.delete(id);
      for (const id of members) {
        await deps.expel(c.roomId, id).catch((err: unknown) => log.error({ err }, 'could not end free time'));
      }
      return;
    }
    tell(c);
    schedule(c);
  }

  /**
   * The time a clock starts with. A new guest clock (no row yet) from an address where a guest's
   * free time in this meeting ran out starts with the free time used up: only the grace, to sign
   * in or save a card. A guest cannot buy a fresh 45 minutes with a new `browserId`, e-mail or
   * cleared cookies (issue 34 item 4); a signed-in person's clock is their account's alone.
   */
  async function startingMs(
    roomId: string,
    key: string,
    row: { usedMs: number } | null,
    clientAddress: string | null,
  ): Promise<number> {
    if (row) return row.usedMs;
    if (key.startsWith(USER_CLOCK_KEY) || !clientAddress) return 0;
    const freeMs = freeMsOf(rules);
    if (!(await repo.addressRanOut(roomId, clientAddress, freeMs))) return 0;
    log.info({ roomId }, 'free-time clock: a new guest where free time ran out starts with none');
    // Written now, so that this clock too counts as run out for the next newcomer.
    await repo.saveClock(roomId, key, freeMs, clientAddress);
    return freeMs;
  }

  async function open(
    roomId: string,
    key: string,
    publicMeetingId: string,
    hostId: string | null,
    clientAddress: string | null,
    name: string,
  ): Promise<LiveClock> {
    const id = `${roomId}|${key}`;
    const live = clocks.get(id);
    if (live) return live;
    const [row, chargedMinutes, covered] = await Promise.all([
      repo.findClock(roomId, key),
      repo.chargedMinutes(roomId, key),
      coverInForce(roomId, hostId),
    ]);
    const address = key.startsWith(USER_CLOCK_KEY) ? null : clientAddress;
    const usedMs = covered ? (row?.usedMs ?? 0) : await startingMs(roomId, key, row, address);
    if (!row && usedMs === 0) await repo.saveClock(roomId, key, 0, address);
    const c: LiveClock = {
      id,
      roomId,
      key,
      publicMeetingId,
      members: new Set(),
      usedMs,
      runningSince: null,
      overageAccountId: row?.overageAccountId ?? null,
      chargedMinutes,
      covered,
      hostId,
      name,
      hostsTold: null,
      timer: null,
    };
    clocks.set(id, c);
    return c;
  }

  function leave(participantId: string): Promise<void> | null {
    const id = clockOf.get(participantId);
    clockOf.delete(participantId);
    const c = id ? clocks.get(id) : undefined;
    if (!c) return null;
    c.members.delete(participantId);
    if (c.members.size > 0) return null;
    stop(c);
    clocks.delete(c.id);
    return repo.saveClock(c.roomId, c.key, c.usedMs);
  }

  return {
    rules,

    /** An admitted participant's socket is in the room: its clock runs (or it hears it has none). */
    present(roomId: string, participantId: string): Promise<void> {
      return run('present', async () => {
        if (closed) return;
        const p = await deps.participant(roomId, participantId);
        if (!p) return;
        if (p.userId && (await hasPro(p.userId))) {
          pro.add(participantId);
          deps.send(roomId, participantId, { type: 'free_time', freeTime: unlimitedState('pro', rules) });
          return;
        }
        const key = clockKeyOf({
          ...p,
          browserKey: p.browserKey ?? null,
          browserId: p.browserId ?? null,
        });
        const c = await open(
          roomId,
          key,
          p.publicMeetingId,
          p.hostId ?? null,
          p.clientAddress ?? null,
          p.name ?? 'A participant',
        );
        c.members.add(participantId);
        clockOf.set(participantId, c.id);
        if (c.covered) {
          tell(c);
          schedule(c);
          return;
        }
        if (c.runningSince === null) c.runningSince = timers.now();
        await act(c);
      });
    },

    /** The participant's socket left the room (disconnected, left, removed): its clock stops. */
    absent(participantId: string): Promise<void> {
      return run('absent', async () => {
        pro.delete(participantId);
        await leave(participantId);
      });
    },

    /** The participant is gone for good. */
    gone(participantId: string): Promise<void> {
      return this.absent(participantId);
    },

    /**
     * Billing starts for a participant in the room (POST /api/billing/start): the account's card
     * pays every started minute past the free time from now on, and those already started.
     */
    startOverage(
      roomId: string,
      participantId: string,
      account: { id: string; ownerKey: string },
    ): Promise<FreeTimeState> {
      return run('start overage', async () => {
        if (pro.has(participantId)) return unlimitedState('pro', rules);
        const id = clockOf.get(participantId);
        const c = id ? clocks.get(id) : undefined;
        if (!c || c.roomId !== roomId) throw new HttpError(409, 'Join the meeting before starting billing');
        // A card pays only its owner's clock: the account and the clock have the same owner key
        // (the signed-in user, or the browser secret). Anything else is someone else's time.
        if (c.key !== account.ownerKey) throw new HttpError(403, OVERAGE_NOT_OWNER_MESSAGE);
        const accountId = account.id;
        c.overageAccountId = accountId;
        await repo.setOverageAccount(c.roomId, c.key, accountId);
        if (c.covered) return stateOf(c);
        await act(c);
        return pro.has(participantId) ? unlimitedState('pro', rules) : stateOf(c);
      });
    },

    /** A Pro host turned "cover everyone" on or off: the room's clocks stop or run again. */
    setCovered(roomId: string, covered: boolean): Promise<void> {
      return run('cover', async () => {
        for (const c of [...clocks.values()]) {
          if (c.roomId !== roomId || c.covered === covered) continue;
          if (covered) {
            stop(c);
            await repo.saveClock(c.roomId, c.key, c.usedMs);
            c.covered = true;
            tell(c);
            schedule(c);
          } else {
            c.covered = false;
            c.runningSince = timers.now();
            await act(c);
          }
        }
      });
    },

    /** The participant's current state (null: not in a room). */
    stateOf(participantId: string): FreeTimeState | null {
      if (pro.has(participantId)) return unlimitedState('pro', rules);
      const id = clockOf.get(participantId);
      const c = id ? clocks.get(id) : undefined;
      return c ? stateOf(c) : null;
    },

    /** Everything queued so far has run (tests). */
    async idle(): Promise<void> {
      for (;;) {
        const q = queue;
        await q;
        if (q === queue) return;
      }
    },

    /** Server shutdown: every running clock is saved and no timer is left. */
    async shutdown(): Promise<void> {
      await run('shutdown', async () => {
        closed = true;
        for (const c of clocks.values()) {
          stop(c);
          await repo.saveClock(c.roomId, c.key, c.usedMs);
        }
        clocks.clear();
        clockOf.clear();
      });
    },
  };
}
export type FreeTimeService = ReturnType<typeof createFreeTimeService>;
