import { createHash, timingSafeEqual } from 'node:crypto';
import { digitsOnly, validateCardInput, type CardError } from '@parley/protocol';
import { AUTH_FAILED_MESSAGE, brandOf, cardOutcome } from './cards.js';
import { SandboxCardError, nowSeconds, oneMonthAhead, randomId } from './objects.js';
import type { SandboxObject } from './repository.js';
import type { Intent, SandboxContext, SandboxPayments, SubscriptionObject } from './types.js';

/** Compares two secrets in constant time (over their digests, so lengths may differ). */
function sameSecret(expected: string, presented: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/**
 * The card form's calls: a payment or setup intent confirmed with a test card succeeds, asks for
 * authentication (3D Secure) or is declined, as Stripe's would. A paid intent pays its invoice and
 * activates its subscription.
 */
export function sandboxCardForm({
  store,
  emit,
}: SandboxContext): Pick<SandboxPayments, 'confirmIntent' | 'authenticateIntent'> {
  async function findIntent(clientSecret: string): Promise<Intent> {
    const at = clientSecret.indexOf('_secret_');
    const intent = at > 0 ? await store.get<Intent>(clientSecret.slice(0, at)) : undefined;
    if (!intent || !sameSecret(intent.client_secret, clientSecret)) {
      throw new SandboxCardError(404, {
        type: 'validation_error',
        code: 'resource_missing',
        message: 'No such payment intent: the client secret does not match any payment.',
      });
    }
    return intent;
  }

  /** The intent moves from the status it was read with to `next`; 400 if another request moved it first. */
  async function transition(intent: Intent, next: Intent): Promise<void> {
    if (!(await store.putIfStatus(next, [intent.status]))) {
      throw new SandboxCardError(400, {
        type: 'validation_error',
        code: `${intent.object}_unexpected_state`,
        message: 'This payment was changed by another request. Reload the page and try again.',
      });
    }
  }

  /** The intent went through: mark it, pay the invoice, activate the subscription. */
  async function succeed(intent: Intent, paymentMethodId: string): Promise<void> {
    const done: Intent = {
      ...intent,
      status: 'succeeded',
      payment_method: paymentMethodId,
      next_action: null,
    };
    await transition(intent, done);
    await emit(`${intent.object}.succeeded`, done);

    const customer = await store.get<
      SandboxObject & { invoice_settings: { default_payment_method: string | null } }
    >(intent.customer);
    if (customer) {
      const updated = { ...customer, invoice_settings: { default_payment_method: paymentMethodId } };
      await store.put(updated);
      await emit('customer.updated', updated, { invoice_settings: customer.invoice_settings });
    }

    if (intent.metadata.invoice) {
      const invoice = await store.get<SandboxObject & { status: string }>(intent.metadata.invoice);
      if (invoice && invoice.status !== 'paid') {
        const paid = {
          ...invoice,
          status: 'paid',
          amount_paid: invoice.amount_due,
          status_transitions: { paid_at: nowSeconds() },
        };
        if (await store.putIfStatus(paid, [invoice.status])) {
          await emit('invoice.paid', paid, { status: invoice.status });
        }
      }
    }
    if (intent.metadata.subscription) {
      const sub = await store.get<SubscriptionObject>(intent.metadata.subscription);
      if (sub && sub.status === 'incomplete') {
        const start = nowSeconds();
        const active: SubscriptionObject = {
          ...sub,
          status: 'active',
          default_payment_method: paymentMethodId,
          pending_setup_intent: null,
          items: {
            ...sub.items,
            data: sub.items.data.map((i) => ({
              ...i,
              current_period_start: start,
              current_period_end: oneMonthAhead(start),
            })),
          },
        };
        if (await store.putIfStatus(active, [sub.status])) {
          await emit('customer.subscription.updated', active, { status: sub.status });
        }
      }
    }
  }

  async function fail(intent: Intent, error: CardError, paymentMethodId: string | null): Promise<never> {
    const lastError = {
      type: error.type,
      code: error.code,
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      message: error.message,
      payment_method: paymentMethodId,
    };
    const failed: Intent = {
      ...intent,
      status: 'requires_payment_method',
      next_action: null,
      payment_method: null,
      ...(intent.object === 'payment_intent'
        ? { last_payment_error: lastError }
        : { last_setup_error: lastError }),
    };
    await transition(intent, failed);
    await emit(
      intent.object === 'payment_intent' ? 'payment_intent.payment_failed' : 'setup_intent.setup_failed',
      failed,
    );
    if (intent.metadata.invoice) {
      const invoice = await store.get<SandboxObject>(intent.metadata.invoice);
      if (invoice) await emit('invoice.payment_failed', invoice);
    }
    throw new SandboxCardError(402, error);
  }

  return {
    async confirmIntent(input) {
      const intent = await findIntent(input.clientSecret);
      if (intent.status === 'succeeded' || intent.status === 'canceled') {
        const noun = intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
        throw new SandboxCardError(400, {
          type: 'validation_error',
          code: `${intent.object}_unexpected_state`,
          message: `You cannot confirm this ${noun} because it has a status of ${intent.status}.`,
        });
      }
      const invalid = validateCardInput(input);
      if (invalid) throw new SandboxCardError(400, invalid);

      const number = digitsOnly(input.cardNumber);
      const [month, year] = input.expiry.split('/').map((s) => Number(s.trim()));
      const paymentMethod = {
        id: randomId('pm'),
        object: 'payment_method',
        type: 'card',
        customer: intent.customer,
        created: nowSeconds(),
        card: {
          brand: brandOf(number),
          last4: number.slice(-4),
          exp_month: month,
          exp_year: year! < 100 ? 2000 + year! : year,
        },
      };
      await store.insert(paymentMethod);
      const outcome = cardOutcome(number);

      if (outcome.kind === 'decline') {
        return fail(
          intent,
          {
            type: 'card_error',
            code: outcome.code,
            message: outcome.message,
            ...(outcome.declineCode ? { declineCode: outcome.declineCode } : {}),
          },
          paymentMethod.id,
        );
      }
      if (outcome.kind === 'authenticate') {
        const waiting: Intent = {
          ...intent,
          status: 'requires_action',
          payment_method: paymentMethod.id,
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } },
        };
        await transition(intent, waiting);
        await emit(`${intent.object}.requires_action`, waiting);
        return { id: intent.id, object: intent.object, status: 'requires_action', paymentMethod: null };
      }
      await succeed(intent, paymentMethod.id);
      return { id: intent.id, object: intent.object, status: 'succeeded', paymentMethod: paymentMethod.id };
    },

    async authenticateIntent({ clientSecret, outcome }) {
      const intent = await findIntent(clientSecret);
      if (intent.status !== 'requires_action' || !intent.payment_method) {
        throw new SandboxCardError(400, {
          type: 'validation_error',
          code: `${intent.object}_unexpected_state`,
          message: 'This payment does not need authentication.',
        });
      }
      if (outcome === 'fail') {
        return fail(
          intent,
          {
            type: 'card_error',
            code: `${intent.object}_authentication_failure`,
            message: AUTH_FAILED_MESSAGE,
          },
          intent.payment_method,
        );
      }
      await succeed(intent, intent.payment_method);
      return {
        id: intent.id,
        object: intent.object,
        status: 'succeeded',
        paymentMethod: intent.payment_method,
      };
    },
  };
}
