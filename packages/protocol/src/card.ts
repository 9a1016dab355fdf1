/** The sandbox card form's checks and formatting, as Stripe's card fields do them. */

/** A card error, as the sandbox answers it (HTTP 400 for bad input, 402 for declines). */
export interface CardError {
  type: 'validation_error' | 'card_error';
  code: string;
  message: string;
  param?: 'number' | 'exp' | 'cvc';
  declineCode?: string;
}

export const digitsOnly = (s: string) => s.replace(/[\s-]/g, '');

export function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const isAmex = (n: string) => /^3[47]/.test(n);

/** Formats typed digits as Stripe's field does: groups of four (4-6-5 for American Express). */
export function formatCardNumber(input: string): string {
  const d = input.replace(/\D/g, '').slice(0, 19);
  if (isAmex(d)) return [d.slice(0, 4), d.slice(4, 10), d.slice(10, 15)].filter(Boolean).join(' ');
  return d.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Formats typed digits as 'MM / YY'. */
export function formatExpiry(input: string): string {
  let d = input.replace(/\D/g, '').slice(0, 4);
  if (d.length === 1 && d > '1') d = `0${d}`;
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

/**
 * Checks card input the way Stripe's card fields do, with Stripe's messages. Returns null when the
 * number, expiry and security code are all acceptable.
 */
export function validateCardInput(
  input: { cardNumber: string; expiry: string; cvc: string },
  now: Date = new Date(),
): CardError | null {
  const number = digitsOnly(input.cardNumber);
  if (number.length === 0 || !/^\d+$/.test(number) || number.length < 13) {
    return {
      type: 'validation_error',
      code: 'incomplete_number',
      param: 'number',
      message: 'Your card number is incomplete.',
    };
  }
  if (number.length > 19 || !luhnValid(number)) {
    return {
      type: 'validation_error',
      code: 'invalid_number',
      param: 'number',
      message: 'Your card number is invalid.',
    };
  }
  const exp = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  if (!exp) {
    return {
      type: 'validation_error',
      code: 'incomplete_expiry',
      param: 'exp',
      message: "Your card's expiration date is incomplete.",
    };
  }
  const month = Number(exp[1]);
  const year = exp[2]!.length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
  if (month < 1 || month > 12) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_month',
      param: 'exp',
      message: "Your card's expiration date is invalid.",
    };
  }
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  if (year < nowYear) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_year_past',
      param: 'exp',
      message: "Your card's expiration year is in the past.",
    };
  }
  if (year === nowYear && month < nowMonth) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_month_past',
      param: 'exp',
      message: "Your card's expiration date is in the past.",
    };
  }
  if (year > nowYear + 50) {
    return {
      type: 'validation_error',
      code: 'invalid_expiry_year',
      param: 'exp',
      message: "Your card's expiration year is invalid.",
    };
  }
  const cvcLength = isAmex(number) ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) {
    return {
      type: 'validation_error',
      code: 'incomplete_cvc',
      param: 'cvc',
      message: "Your card's security code is incomplete.",
    };
  }
  return null;
}
