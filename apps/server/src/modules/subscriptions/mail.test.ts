import { FEATURE_AVAILABILITY, type Feature } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema/index.js';
import type { ProviderSubscription } from '../../providers/payments/index.js';
import { confirmationEmail } from './mail.js';

const user: UserRow = {
  id: '00000000-0000-4000-8000-000000000001',
  issuer: 'https://issuer.example',
  subject: 'sam',
  email: 'sam@example.com',
  firstName: 'Sam',
  lastName: 'Ple',
  createdAt: new Date('2026-11-01T00:00:00Z'),
  updatedAt: new Date('2026-11-01T00:00:00Z'),
};
const sub: ProviderSubscription = {
  id: 'sub_mail',
  customerId: 'cus_mail',
  userId: user.id,
  status: 'active',
  currentPeriodEnd: new Date('2026-12-23T00:00:00Z'),
  cancelAtPeriodEnd: false,
  amountCents: 999,
  currency: 'usd',
  clientSecret: null,
};

const noneBuilt = Object.fromEntries(Object.keys(FEATURE_AVAILABILITY).map((k) => [k, false])) as Record<
  Feature,
  boolean
>;
const allBuilt = Object.fromEntries(Object.keys(FEATURE_AVAILABILITY).map((k) => [k, true])) as Record<
  Feature,
  boolean
>;

describe('the Pro confirmation email', () => {
  it('says what Pro gives today and that the AI features are still coming', () => {
    const { text, html } = confirmationEmail(user, sub, 'https://meet.example.com', noneBuilt);
    expect(text).toContain('Your subscription is active: $9.99/month, renewing on 2026-12-23.');
    expect(text).toContain('You can now start meetings and schedule them with calendar invitations');
    expect(text).toContain(
      'Live transcription, live translation and AI meeting summaries with action items and decisions are still in development and not in meetings yet',
    );
    // The sentence that used to promise them, and any other "available" claim, is gone.
    expect(text).not.toMatch(/now available/i);
    expect(text).not.toMatch(/available in your meetings/i);
    expect(html).not.toMatch(/available in your meetings/i);
  });

  it('follows FEATURE_AVAILABILITY as committed: each AI feature is available or coming, as its flag says', () => {
    const lines = confirmationEmail(user, sub, 'https://meet.example.com').text.split('\n');
    const available = lines.find((l) => l.includes('available in your meetings')) ?? '';
    const coming = lines.find((l) => l.includes('still in development')) ?? '';
    const names = {
      transcription: /live transcription/i,
      translation: /live translation/i,
      summaries: /AI meeting summaries/i,
    } as const;
    for (const [feature, name] of Object.entries(names) as [keyof typeof names, RegExp][]) {
      const [said, notSaid] = FEATURE_AVAILABILITY[feature] ? [available, coming] : [coming, available];
      expect(said, feature).toMatch(name);
      expect(notSaid, feature).not.toMatch(name);
    }
  });

  it('mentions recordings only while FEATURE_AVAILABILITY.recording says they work', () => {
    const on = confirmationEmail(user, sub, 'https://meet.example.com', {
      ...noneBuilt,
      recording: true,
    }).text;
    const off = confirmationEmail(user, sub, 'https://meet.example.com', noneBuilt).text;
    expect(on).toContain(
      'host controls, recordings you download from My Meetings and a waiting room and passwords.',
    );
    expect(off).not.toMatch(/recording/i);
    expect(
      confirmationEmail(user, sub, 'https://meet.example.com').text.includes('recordings you download'),
    ).toBe(FEATURE_AVAILABILITY.recording);
  });

  it('names the AI features as available once their flags are flipped', () => {
    const { text } = confirmationEmail(user, sub, 'https://meet.example.com', allBuilt);
    expect(text).toContain(
      'Live transcription, live translation and AI meeting summaries with action items and decisions are available in your meetings.',
    );
    expect(text).not.toContain('in development');
  });

  it('tells only the missing one as coming when some are built', () => {
    const { text } = confirmationEmail(user, sub, 'https://meet.example.com', {
      ...noneBuilt,
      transcription: true,
    });
    expect(text).toContain('Live transcription is available in your meetings.');
    expect(text).toContain(
      'Live translation and AI meeting summaries with action items and decisions are still in development',
    );
  });
});
