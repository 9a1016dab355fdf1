import { PRO_PLAN } from '@parley/protocol';
import type { UserRow } from '../../db/schema/index.js';
import { escapeHtml } from '../../http/html.js';
import type { MailMessage } from '../../providers/mail/index.js';
import type { ProviderSubscription } from '../../providers/payments/index.js';
import { formatAmount } from './status.js';

/** The confirmation email the success page mentions, sent when a subscription turns active. */
export function confirmationEmail(user: UserRow, sub: ProviderSubscription, publicUrl: string): MailMessage {
  const name = user.firstName || user.email;
  const renews = sub.currentPeriodEnd ? sub.currentPeriodEnd.toISOString().slice(0, 10) : null;
  const lines = [
    `Hi ${name},`,
    '',
    `Welcome to the ${PRO_PLAN.name}! Your subscription is active: $${formatAmount(sub.amountCents)}/${PRO_PLAN.interval}${renews ? `, renewing on ${renews}` : ''}.`,
    'Live transcription, translation and AI summaries are now available in your meetings.',
    '',
    `Start a meeting: ${publicUrl}/`,
    `Manage your subscription: ${publicUrl}/settings`,
    '',
    `${PRO_PLAN.moneyBackGuaranteeDays}-day money-back guarantee. Cancel anytime.`,
  ];
  return {
    to: { email: user.email, name: [user.firstName, user.lastName].filter(Boolean).join(' ') || null },
    subject: `Your Parley ${PRO_PLAN.name} is active`,
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : '')).join('\n'),
  };
}
