import { randomBytes } from 'node:crypto';
import { PRO_PLAN, type CardError } from '@parley/protocol';

/** The sandbox's Stripe-shaped ids, clock, price and card error. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One calendar month after `from` (clamped to the month's last day), in seconds. */
export function oneMonthAhead(fromSeconds: number): number {
  const d = new Date(fromSeconds * 1000);
  const day = d.getUTCDate();
  const target = new Date(d);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

export const PRICE = {
  id: 'price_sandbox_pro_monthly',
  object: 'price',
  unit_amount: Math.round(PRO_PLAN.priceUsd * 100),
  currency: PRO_PLAN.currency,
  recurring: { interval: PRO_PLAN.interval, interval_count: 1 },
  product: 'prod_sandbox_pro',
} as const;

/** A card problem: 400 for bad input, 402 for a card the issuer refused (as Stripe answers). */
export class SandboxCardError extends Error {
  constructor(
    readonly statusCode: 400 | 402 | 404,
    readonly error: CardError,
  ) {
    super(error.message);
  }
}
