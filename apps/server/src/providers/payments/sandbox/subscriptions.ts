import type { PaymentsProvider, ProviderSubscription } from '../types.js';
import { PRICE, nowSeconds, oneMonthAhead, randomId } from './objects.js';
import type { SandboxObject } from './repository.js';
import type { Intent, SandboxContext, SubscriptionObject } from './types.js';

type SubscriptionCalls = Pick<
  PaymentsProvider,
  'ensureCustomer' | 'createSubscription' | 'retrieveSubscription' | 'setCancelAtPeriodEnd'
>;

/**
 * Customers and the Pro subscription: a new subscription is `incomplete`, with an open invoice
 * whose payment intent the card form pays (card-form.ts makes it `active`).
 */
export function sandboxSubscriptions({ store, emit }: SandboxContext): SubscriptionCalls {
  async function toProviderSubscription(sub: SubscriptionObject): Promise<ProviderSubscription> {
    let clientSecret: string | null = null;
    if (sub.status === 'incomplete') {
      if (sub.latest_invoice) {
        const invoice = await store.get<
          SandboxObject & { confirmation_secret: { client_secret: string } | null }
        >(sub.latest_invoice);
        clientSecret = invoice?.confirmation_secret?.client_secret ?? null;
      }
      if (!clientSecret && sub.pending_setup_intent) {
        clientSecret = (await store.get<Intent>(sub.pending_setup_intent))?.client_secret ?? null;
      }
    }
    const item = sub.items.data[0];
    return {
      id: sub.id,
      customerId: sub.customer,
      userId: sub.metadata.userId ?? null,
      status: sub.status,
      currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      amountCents: item?.price.unit_amount ?? 0,
      currency: item?.price.currency ?? PRICE.currency,
      clientSecret,
    };
  }

  return {
    async ensureCustomer({ userId, email, name }) {
      const id = await store.claimIdempotencyKey(`customer-${userId}`, randomId('cus', 14));
      if (await store.get(id)) return id;
      const customer = {
        id,
        object: 'customer',
        email,
        name,
        created: nowSeconds(),
        metadata: { userId },
        invoice_settings: { default_payment_method: null },
      };
      await store.insert(customer);
      await emit('customer.created', customer);
      return id;
    },

    async createSubscription({ customerId, userId, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('sub', 24));
      const existing = await store.get<SubscriptionObject>(id);
      if (existing) return toProviderSubscription(existing);
      if (!(await store.get(customerId))) throw new Error(`No such customer: '${customerId}'`);

      const created = nowSeconds();
      const invoiceId = randomId('in');
      const intentId = randomId('pi');
      const clientSecret = `${intentId}_secret_${randomId('x', 24).slice(2)}`;
      const sub: SubscriptionObject = {
        id,
        object: 'subscription',
        customer: customerId,
        status: 'incomplete',
        cancel_at_period_end: false,
        canceled_at: null,
        created,
        currency: PRICE.currency,
        collection_method: 'charge_automatically',
        metadata: { userId },
        latest_invoice: invoiceId,
        pending_setup_intent: null,
        default_payment_method: null,
        payment_settings: { save_default_payment_method: 'on_subscription' },
        items: {
          object: 'list',
          data: [
            {
              id: randomId('si', 14),
              object: 'subscription_item',
              price: PRICE,
              quantity: 1,
              current_period_start: created,
              current_period_end: oneMonthAhead(created),
            },
          ],
        },
      };
      const invoice = {
        id: invoiceId,
        object: 'invoice',
        customer: customerId,
        status: 'open',
        amount_due: PRICE.unit_amount,
        amount_paid: 0,
        currency: PRICE.currency,
        billing_reason: 'subscription_create',
        created,
        parent: { type: 'subscription_details', subscription_details: { subscription: id } },
        confirmation_secret: { type: 'payment_intent', client_secret: clientSecret },
      };
      const intent: Intent = {
        id: intentId,
        object: 'payment_intent',
        amount: PRICE.unit_amount,
        currency: PRICE.currency,
        customer: customerId,
        status: 'requires_payment_method',
        client_secret: clientSecret,
        payment_method: null,
        setup_future_usage: 'off_session',
        next_action: null,
        last_payment_error: null,
        created,
        metadata: { subscription: id, invoice: invoiceId },
      };
      await store.insert(intent);
      await store.insert(invoice);
      await store.insert(sub);
      await emit('customer.subscription.created', sub);
      await emit('invoice.finalized', invoice);
      return toProviderSubscription(sub);
    },

    async retrieveSubscription(id) {
      const sub = await store.get<SubscriptionObject>(id);
      return sub && sub.object === 'subscription' ? toProviderSubscription(sub) : null;
    },

    async setCancelAtPeriodEnd(id, cancelAtPeriodEnd) {
      const sub = await store.get<SubscriptionObject>(id);
      if (!sub || sub.object !== 'subscription') throw new Error(`No such subscription: '${id}'`);
      if (sub.status === 'canceled') throw new Error('A canceled subscription can only update its metadata.');
      if (sub.cancel_at_period_end !== cancelAtPeriodEnd) {
        const updated: SubscriptionObject = {
          ...sub,
          cancel_at_period_end: cancelAtPeriodEnd,
          canceled_at: cancelAtPeriodEnd ? nowSeconds() : null,
        };
        await store.put(updated);
        await emit('customer.subscription.updated', updated, {
          cancel_at_period_end: sub.cancel_at_period_end,
          canceled_at: sub.canceled_at,
        });
        return toProviderSubscription(updated);
      }
      return toProviderSubscription(sub);
    },
  };
}
