import { describe, expect, it } from 'vitest';
import { identityFromClaims } from './relying-party.js';
import { SignInRejected } from './types.js';

describe('identityFromClaims', () => {
  const base = { sub: 'u-1', email: 'Ann.Lee@Example.com', given_name: 'Ann', family_name: 'Lee' };

  it('takes the subject, the lower-cased email and the names', () => {
    expect(identityFromClaims('https://id.example.com', { ...base, email_verified: true }, 'tok')).toEqual({
      issuer: 'https://id.example.com',
      subject: 'u-1',
      email: 'ann.lee@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      idToken: 'tok',
    });
    // A provider that does not send email_verified is believed.
    expect(identityFromClaims('https://id.example.com', base, null).email).toBe('ann.lee@example.com');
  });

  it('refuses an email the provider says it has not verified: it would be the host in invitation mail', () => {
    for (const email_verified of [false, 'false']) {
      expect(() => identityFromClaims('https://id.example.com', { ...base, email_verified }, null)).toThrow(
        new SignInRejected(
          'Your email address is not verified at the identity provider. Verify it there, then sign in again.',
        ),
      );
    }
  });

  it('refuses claims without a subject or an email', () => {
    expect(() => identityFromClaims('i', { email: 'a@b.c' }, null)).toThrow(/no subject/);
    expect(() => identityFromClaims('i', { sub: 'x' }, null)).toThrow(/did not share your email/);
  });
});
