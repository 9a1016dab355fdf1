import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, luhnValid, validateCardInput } from './subscription.js';

describe('sandbox card input', () => {
  it('formats the number in groups (4-6-5 for American Express) and the expiry as MM / YY', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('3782 822463 10005')).toBe('3782 822463 10005');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('5')).toBe('05');
  });

  it('checks the Luhn digit, the expiry against the current month and the security code length', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    const now = new Date(Date.UTC(2026, 5, 15));
    const ok = { cardNumber: '4242 4242 4242 4242', expiry: '06 / 26', cvc: '123' };
    expect(validateCardInput(ok, now)).toBeNull();
    expect(validateCardInput({ ...ok, expiry: '05 / 26' }, now)?.message).toBe(
      "Your card's expiration date is in the past.",
    );
    expect(validateCardInput({ ...ok, expiry: '12 / 25' }, now)?.message).toBe(
      "Your card's expiration year is in the past.",
    );
    expect(validateCardInput({ ...ok, cardNumber: '378282246310005', cvc: '1234' }, now)).toBeNull();
    expect(validateCardInput({ ...ok, cvc: '1234' }, now)?.param).toBe('cvc');
  });
});
