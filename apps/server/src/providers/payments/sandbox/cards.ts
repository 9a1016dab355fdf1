/** Stripe's test cards: what each number does when the sandbox's card form confirms it. */

export type Outcome =
  | { kind: 'succeed' }
  | { kind: 'authenticate' }
  | { kind: 'decline'; code: string; declineCode?: string; message: string };

const DECLINED = 'Your card was declined.';
/** Stripe's test card numbers and what they do. */
const TEST_CARDS: Record<string, Outcome> = {
  '4242424242424242': { kind: 'succeed' },
  '4000056655665556': { kind: 'succeed' },
  '5555555555554444': { kind: 'succeed' },
  '2223003122003222': { kind: 'succeed' },
  '5200828282828210': { kind: 'succeed' },
  '378282246310005': { kind: 'succeed' },
  '6011111111111117': { kind: 'succeed' },
  '4000002500003155': { kind: 'authenticate' },
  '4000002760003184': { kind: 'authenticate' },
  '4000000000003220': { kind: 'authenticate' },
  '4000000000000002': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: DECLINED,
  },
  '4000000000009995': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000009987': { kind: 'decline', code: 'card_declined', declineCode: 'lost_card', message: DECLINED },
  '4000000000009979': {
    kind: 'decline',
    code: 'card_declined',
    declineCode: 'stolen_card',
    message: DECLINED,
  },
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    kind: 'decline',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000000000000119': {
    kind: 'decline',
    code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
};
const NON_TEST_CARD: Outcome = {
  kind: 'decline',
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message:
    'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};
export const AUTH_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** What the card number does: a test card's outcome, or the decline of any other card. */
export function cardOutcome(number: string): Outcome {
  return TEST_CARDS[number] ?? NON_TEST_CARD;
}

export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6/.test(number)) return 'discover';
  return 'unknown';
}
