import type { PaymentsProvider } from '../types.js';
import { nowSeconds, randomId } from './objects.js';
import type { SandboxObject } from './repository.js';
import type { Intent, SandboxContext } from './types.js';

type BillingCalls = Pick<PaymentsProvider, 'createSetupIntent' | 'retrieveSetupIntent' | 'recordUsage'>;

/** Free-tier billing: setup intents that save a card, and overage minutes as invoice items. */
export function sandboxBilling({ store, emit }: SandboxContext): BillingCalls {
  return {
    async createSetupIntent({ customerId, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('seti'));
      const existing = await store.get<Intent>(id);
      if (existing) return { id, clientSecret: existing.client_secret };
      if (!(await store.get(customerId))) throw new Error(`No such customer: '${customerId}'`);
      const intent: Intent = {
        id,
        object: 'setup_intent',
        customer: customerId,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomId('x', 24).slice(2)}`,
        usage: 'off_session',
        payment_method: null,
        next_action: null,
        last_setup_error: null,
        created: nowSeconds(),
        metadata: {},
      };
      await store.insert(intent);
      await emit('setup_intent.created', intent);
      return { id, clientSecret: intent.client_secret };
    },

    async retrieveSetupIntent(id) {
      const intent = await store.get<Intent>(id);
      if (!intent || intent.object !== 'setup_intent') return null;
      const method = intent.payment_method
        ? await store.get<SandboxObject & { card?: { brand: string; last4: string } }>(intent.payment_method)
        : undefined;
      return {
        id: intent.id,
        customerId: intent.customer,
        status: intent.status,
        paymentMethodId: intent.payment_method,
        card: method?.card ? { brand: method.card.brand, last4: method.card.last4 } : null,
      };
    },

    async recordUsage({ customerId, amountCents, currency, description, idempotencyKey }) {
      const id = await store.claimIdempotencyKey(idempotencyKey, randomId('ii'));
      if (await store.get(id)) return { id };
      const item = {
        id,
        object: 'invoiceitem',
        customer: customerId,
        amount: amountCents,
        currency,
        description,
        date: nowSeconds(),
      };
      await store.insert(item);
      await emit('invoiceitem.created', item);
      return { id };
    },
  };
}
