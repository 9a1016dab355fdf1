import { AI_FEATURES, FEATURE_AVAILABILITY, PRO_PLAN, type Feature } from '@parley/protocol';
import type { UserRow } from '../../db/schema/index.js';
import { escapeHtml } from '../../http/html.js';
import type { MailMessage } from '../../providers/mail/index.js';
import type { ProviderSubscription } from '../../providers/payments/index.js';
import { displayName } from '../users/display-name.js';
import { formatAmount } from './status.js';

const AI_NAMES: Partial<Record<Feature, string>> = {
  transcription: 'live transcription',
  translation: 'live translation',
  summaries: 'AI meeting summaries with action items and decisions',
};

function listing(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What Pro gives today, and which AI features are still coming: said from FEATURE_AVAILABILITY, so
 * the mail never promises a feature that does not work yet.
 */
export function proFeatureLines(availability: Readonly<Record<Feature, boolean>>): string[] {
  const ready = AI_FEATURES.filter((f) => availability[f]).map((f) => AI_NAMES[f] ?? f);
  const coming = AI_FEATURES.filter((f) => !availability[f]).map((f) => AI_NAMES[f] ?? f);
  const basics = [
    'video in the browser',
    'screen sharing',
    'chat with files',
    'host controls',
    ...(availability.recording ? ['recordings you download from My Meetings'] : []),
    'a waiting room and passwords',
  ];
  const lines = [
    `You can now start meetings and schedule them with calendar invitations: ${listing(basics)}.`,
  ];
  if (ready.length > 0)
    lines.push(
      `${capitalised(listing(ready))} ${ready.length > 1 ? 'are' : 'is'} available in your meetings.`,
    );
  if (coming.length > 0)
    lines.push(
      `${capitalised(listing(coming))} ${coming.length > 1 ? 'are' : 'is'} still in development and not in meetings yet; ${coming.length > 1 ? 'they come' : 'it comes'} to your plan when ready.`,
    );
  return lines;
}

/** The confirmation email the success page mentions, sent when a subscription turns active. */
export function confirmationEmail(
  user: UserRow,
  sub: ProviderSubscription,
  publicUrl: string,
  availability: Readonly<Record<Feature, boolean>> = FEATURE_AVAILABILITY,
): MailMessage {
  const name = user.firstName || user.email;
  const renews = sub.currentPeriodEnd ? sub.currentPeriodEnd.toISOString().slice(0, 10) : null;
  const lines = [
    `Hi ${name},`,
    '',
    `Welcome to the ${PRO_PLAN.name}! Your subscription is active: $${formatAmount(sub.amountCents)}/${PRO_PLAN.interval}${renews ? `, renewing on ${renews}` : ''}.`,
    ...proFeatureLines(availability),
    '',
    `Start a meeting: ${publicUrl}/`,
    `Manage your subscription: ${publicUrl}/settings`,
    '',
    `${PRO_PLAN.moneyBackGuaranteeDays}-day money-back guarantee. Cancel anytime.`,
  ];
  return {
    to: { email: user.email, name: displayName(user) },
    subject: `Your Parley ${PRO_PLAN.name} is active`,
    text: lines.join('\n'),
    html: lines.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : '')).join('\n'),
  };
}
