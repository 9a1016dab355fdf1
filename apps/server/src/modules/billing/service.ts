import { randomUUID } from 'node:crypto';
import { FREE_TIER, MEETING_ID_PATTERN, PRO_PLAN, type BillingUsage } from '@parley/protocol';
import type { UserRow } from '../../db/schema/index.js';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.js';
import type { PaymentsProvider } from '../../providers/payments/index.js';
import { WindowCounter } from '../rooms/limiter.js';
import { SUBSCRIPTION_REQUIRED_MESSAGE } from '../subscriptions/access.js';
import { displayName } from '../users/display-name.js';
import { GUEST_CLOCK_KEY, USER_CLOCK_KEY } from './clock.js';
import type { FreeTimeService } from './free-time.js';
import type { BillingRepository } from './repository.js';

/**
 * Who calls a billing route: a signed-in user, or a guest's browser known by its browser secret
 * (browser-secret.ts; `browserKey` is its SHA-256, the only form stored). A saved card belongs to
 * that owner only, so nobody can start billing on a card someone else saved, whatever e-mail
 * they type: the e-mail is where receipts go, never who pays.
 */
export interface BillingCaller {
  user: UserRow | null;
  browserKey: string | null;
}

/**
 * Card setups (setup intents) per browser and per address in SETUP_INTENT_WINDOW_MS (issue 34
 * item 7). Saving a card takes one, a retry after a declined card another; an office behind one
 * address rarely saves more than a few in ten minutes. Per instance (in memory).
 */
export const SETUP_INTENTS_PER_BROWSER = 5;
export const SETUP_INTENTS_PER_ADDRESS = 30;
export const SETUP_INTENT_WINDOW_MS = 10 * 60_000;

export const BILLING_ERRORS = {
  noOwner: 'Set up a payment method first',
  notSetUp: 'Set up a payment method first',
  notConfirmed: 'This card was not confirmed: add it again',
  noCard: 'Add a payment method before starting billing',
  needsSession: 'Join the meeting to save a card',
  tooManySetups: `Too many attempts to save a card. Please wait ${SETUP_INTENT_WINDOW_MS / 60_000} minutes and try again.`,
  notOwner: 'Meeting not found',
} as const;

/** The owner key of a caller: the same string as its free-time clock's key (clock.ts). */
function ownerKeyOf(caller: BillingCaller): string | null {
  if (caller.user) return `${USER_CLOCK_KEY}${caller.user.id}`;
  return caller.browserKey ? `${GUEST_CLOCK_KEY}${caller.browserKey}` : null;
}

export function createBillingService(deps: {
  repo: BillingRepository;
  provider: PaymentsProvider;
  freeTime: FreeTimeService;
  /** The admitted participant a join token names in a meeting (rooms' participantOf). */
  participantOf(
    publicId: string,
    joinToken: string | null,
  ): Promise<{ roomId: string; participantId: string }>;
  isPro(userId: string): Promise<boolean>;
}) {
  const { repo, provider } = deps;
  const perBrowser = new WindowCounter(SETUP_INTENTS_PER_BROWSER, SETUP_INTENT_WINDOW_MS);
  const perAddress = new WindowCounter(SETUP_INTENTS_PER_ADDRESS, SETUP_INTENT_WINDOW_MS);

  /** Spends one card setup of the owner and of the address, or 429 when either is spent. */
  function spendSetup(ownerKey: string, clientAddress: string): void {
    if (!perBrowser.tryRecord(ownerKey)) throw new HttpError(429, BILLING_ERRORS.tooManySetups);
    if (!perAddress.tryRecord(clientAddress)) {
      perBrowser.undo(ownerKey);
      throw new HttpError(429, BILLING_ERRORS.tooManySetups);
    }
  }

  async function accountOf(caller: BillingCaller) {
    const owner = ownerKeyOf(caller);
    return owner ? repo.accountByOwner(owner) : null;
  }

  return {
    /**
     * POST /api/payment/setup-intent: a setup intent to save a card for the owner (spec §7). It
     * needs a billing session: an admitted participant of the meeting (its join token), the step
     * in which the free tier asks for a card; anonymous callers got 100 intents in 2.4 s (issue
     * 34 item 7). The route limits it per address and per browser as well.
     */
    async setupIntent(
      caller: BillingCaller,
      email: string,
      meetingId: string,
      joinToken: string | null,
      clientAddress: string,
    ): Promise<{ clientSecret: string }> {
      if (!joinToken) throw new HttpError(401, BILLING_ERRORS.needsSession);
      await deps.participantOf(meetingId, joinToken);
      const ownerKey = ownerKeyOf(caller);
      if (!ownerKey) throw badRequest(BILLING_ERRORS.noOwner);
      spendSetup(ownerKey, clientAddress);
      const account = await repo.upsertAccount({ ownerKey, userId: caller.user?.id ?? null, email });
      // A signed-in user's customer is the one its Pro subscription uses (same idempotency key).
      const customerId =
        account.customerId ??
        (await provider.ensureCustomer({
          userId: caller.user?.id ?? `guest-${account.id}`,
          email,
          name: caller.user ? displayName(caller.user) : null,
        }));
      const intent = await provider.createSetupIntent({
        customerId,
        idempotencyKey: `billing-setup-${account.id}-${randomUUID()}`,
      });
      await repo.updateAccount(account.id, { customerId, setupIntentId: intent.id });
      return { clientSecret: intent.clientSecret };
    },

    /**
     * POST /api/payment/save-method: the card of the owner's last setup intent is saved, once the
     * provider says that intent succeeded with exactly that payment method.
     */
    async saveMethod(caller: BillingCaller, email: string, paymentMethodId: string) {
      const account = await accountOf(caller);
      if (!account?.setupIntentId) throw new HttpError(409, BILLING_ERRORS.notSetUp);
      const intent = await provider.retrieveSetupIntent(account.setupIntentId);
      if (
        !intent ||
        intent.status !== 'succeeded' ||
        intent.paymentMethodId !== paymentMethodId ||
        intent.customerId !== account.customerId
      ) {
        throw badRequest(BILLING_ERRORS.notConfirmed);
      }
      await repo.upsertAccount({ ownerKey: account.ownerKey, userId: account.userId, email });
      await repo.updateAccount(account.id, {
        paymentMethodId,
        cardBrand: intent.card?.brand ?? null,
        cardLast4: intent.card?.last4 ?? null,
      });
      return { saved: true as const, card: intent.card };
    },

    /**
     * POST /api/billing/start: the caller's participant in the meeting (its join token) switches
     * to overage, paid by the caller's own saved card. `participantEmail` names nobody: the card
     * is the caller's (account or browser secret), and it pays only the clock of the same owner.
     */
    async start(caller: BillingCaller, meetingId: string, joinToken: string | null) {
      const account = await accountOf(caller);
      if (!account?.paymentMethodId) throw new HttpError(402, BILLING_ERRORS.noCard);
      const { roomId, participantId } = await deps.participantOf(meetingId, joinToken);
      const freeTime = await deps.freeTime.startOverage(roomId, participantId, account);
      return { started: true as const, freeTime };
    },

    /** GET /api/billing/usage: the caller's card and what it was charged, per meeting. */
    async usage(caller: BillingCaller): Promise<BillingUsage> {
      const account = await accountOf(caller);
      if (!account) {
        return {
          hasPaymentMethod: false,
          card: null,
          email: null,
          totalMinutes: 0,
          totalCents: 0,
          meetings: [],
        };
      }
      const rows = await repo.usage(account.id);
      const meetings = rows.map((r) => ({
        meetingId: r.meetingId,
        minutes: Number(r.minutes),
        amountCents: Number(r.amountCents ?? 0),
        lastChargedAt: new Date(r.lastChargedAt ?? Date.now()).toISOString(),
      }));
      return {
        hasPaymentMethod: !!account.paymentMethodId,
        card:
          account.cardBrand && account.cardLast4
            ? { brand: account.cardBrand, last4: account.cardLast4 }
            : null,
        email: account.email,
        totalMinutes: meetings.reduce((n, m) => n + m.minutes, 0),
        totalCents: meetings.reduce((n, m) => n + m.amountCents, 0),
        meetings,
      };
    },

    /** A ledger minute reaches the provider as an invoice item (idempotent per ledger row). */
    async report(entry: { ledgerId: string; accountId: string; publicMeetingId: string; minute: number }) {
      const account = await repo.accountById(entry.accountId);
      if (!account?.customerId) return;
      const item = await provider.recordUsage({
        customerId: account.customerId,
        amountCents: FREE_TIER.overageCentsPerMinute,
        currency: PRO_PLAN.currency,
        description: `Meeting ${entry.publicMeetingId}: minute ${entry.minute} past the free ${FREE_TIER.freeMinutesPerMeeting}`,
        idempotencyKey: `usage-${entry.ledgerId}`,
      });
      await repo.markReported(entry.ledgerId, item.id);
    },

    /**
     * The meeting's owner reads or sets "cover everyone" (a Pro host; 404 for anyone else). What
     * is read is what is in force: switched on and the host has Pro now (free-time.ts checks the
     * same each minute), so a lapsed host's Settings do not show a cover that no longer covers.
     */
    async cover(
      user: UserRow,
      publicId: string,
      coverEveryone?: boolean,
    ): Promise<{ coverEveryone: boolean }> {
      const meeting = MEETING_ID_PATTERN.test(publicId) ? await repo.findMeeting(publicId) : null;
      if (!meeting || meeting.hostId !== user.id) throw notFound(BILLING_ERRORS.notOwner);
      if (coverEveryone === undefined)
        return { coverEveryone: (await repo.coverEveryone(meeting.id)) && (await deps.isPro(user.id)) };
      if (coverEveryone && !(await deps.isPro(user.id))) {
        throw forbidden(SUBSCRIPTION_REQUIRED_MESSAGE, { requiresSubscription: true });
      }
      await repo.setCoverEveryone(meeting.id, coverEveryone);
      await deps.freeTime.setCovered(meeting.id, coverEveryone);
      return { coverEveryone };
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
