import { FREE_TIER, type FreeTimeState } from '@parley/protocol';

/**
 * The free tier's rules as pure functions of the time used (spec §4, §9): 45 free minutes, the
 * payment prompt at 40 elapsed, the upgrade hint at 10 left, the warning at 5 left, then a
 * 30-second grace, and 10 cents for every started minute past the free time once a card is
 * saved. Every threshold falls on a whole minute, so the clock acts on its minute ticks (and on
 * the end of the grace) exactly.
 */

export interface ClockRules {
  /** How long a minute lasts (60,000 ms; the test configuration runs a minute as a second). */
  minuteMs: number;
  /** The grace after the free time (30 s). */
  graceMs: number;
}

export const DEFAULT_RULES: ClockRules = { minuteMs: 60_000, graceMs: FREE_TIER.graceSeconds * 1000 };

export const freeMsOf = (r: ClockRules): number => FREE_TIER.freeMinutesPerMeeting * r.minuteMs;

/** Minutes past the free time that have started (each is charged): 0 before the free time ends. */
export function startedOverageMinutes(elapsedMs: number, r: ClockRules): number {
  const past = elapsedMs - freeMsOf(r);
  return past < 0 ? 0 : Math.floor(past / r.minuteMs) + 1;
}

/** True when the free time and its grace are used up and no card pays for more. */
export function isExhausted(elapsedMs: number, overage: boolean, r: ClockRules): boolean {
  return !overage && elapsedMs >= freeMsOf(r) + r.graceMs;
}

/** How long until the clock must act again: its next minute tick, or the end of the grace. */
export function nextActionInMs(elapsedMs: number, overage: boolean, r: ClockRules): number {
  const toTick = r.minuteMs - (elapsedMs % r.minuteMs);
  const freeMs = freeMsOf(r);
  if (!overage && elapsedMs >= freeMs) return Math.max(0, Math.min(toTick, freeMs + r.graceMs - elapsedMs));
  return toTick;
}

/** The state the participant is shown, for a clock that is counted (not Pro, not covered). */
export function clockState(
  elapsedMs: number,
  input: { overage: boolean; chargedMinutes: number; running: boolean },
  r: ClockRules,
): FreeTimeState {
  const freeMs = freeMsOf(r);
  const remainingMs = Math.max(0, freeMs - elapsedMs);
  const mode = input.overage ? 'overage' : remainingMs > 0 ? 'free' : 'grace';
  const leftMinutes = remainingMs / r.minuteMs;
  return {
    mode,
    reason: null,
    elapsedMs: Math.round(elapsedMs),
    freeMs,
    remainingMs: Math.round(remainingMs),
    graceRemainingMs: mode === 'grace' ? Math.max(0, Math.round(freeMs + r.graceMs - elapsedMs)) : null,
    graceMs: r.graceMs,
    minuteMs: r.minuteMs,
    prompt: !input.overage && elapsedMs >= FREE_TIER.paymentPromptAtMinutes * r.minuteMs,
    warning: !input.overage && leftMinutes <= FREE_TIER.warningAtMinutesLeft,
    upgradeHint: !input.overage && leftMinutes <= FREE_TIER.upgradeHintAtMinutesLeft,
    overageMinutes: input.chargedMinutes,
    overageCents: input.chargedMinutes * FREE_TIER.overageCentsPerMinute,
    running: input.running,
  };
}

/** The state of a participant whose time is not counted. */
export function unlimitedState(reason: 'pro' | 'covered', r: ClockRules): FreeTimeState {
  return {
    mode: 'unlimited',
    reason,
    elapsedMs: 0,
    freeMs: freeMsOf(r),
    remainingMs: 0,
    graceRemainingMs: null,
    graceMs: r.graceMs,
    minuteMs: r.minuteMs,
    prompt: false,
    warning: false,
    upgradeHint: false,
    overageMinutes: 0,
    overageCents: 0,
    running: false,
  };
}

/** The prefix of a signed-in person's clock key. */
export const USER_CLOCK_KEY = 'user:';
/** The prefix of a guest's clock key when its browser holds a browser secret. */
export const GUEST_CLOCK_KEY = 'guest:';

/**
 * Whose clock a participant uses: the account when signed in, else the browser secret its
 * browser holds (billing/browser-secret.ts), else (cookies refused) its kept id or the tab's
 * session. Never the e-mail typed in the join form: anyone can type anyone's (issue 34 item 4).
 * A signed-in clock and a guest's clock have the key of the billing account that may pay them
 * (`service.ts#ownerKeyOf`), so a card pays only its owner's minutes.
 */
export function clockKeyOf(p: {
  userId: string | null;
  browserKey: string | null;
  browserId: string | null;
  sessionKey: string;
}): string {
  if (p.userId) return `${USER_CLOCK_KEY}${p.userId}`;
  if (p.browserKey) return `${GUEST_CLOCK_KEY}${p.browserKey}`;
  if (p.browserId) return `browser:${p.browserId}`;
  return `session:${p.sessionKey}`;
}
