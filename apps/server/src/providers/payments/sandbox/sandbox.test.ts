import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../../test/db.js';
import type { DbHandle } from '../../../db/index.js';
import { createSandboxProvider, SandboxCardError, type SandboxPayments } from './index.js';
import { createSandboxStore } from './repository.js';

let db: DbHandle;
let sandbox: SandboxPayments;
let events: string[];

beforeAll(async () => {
  db = await createTestDb();
  sandbox = createSandboxProvider(db.db);
  events = [];
  sandbox.setEventSink(async (e) => {
    events.push(e.type);
  });
});
afterAll(async () => db.close());

async function pendingSubscription(email: string) {
  const userId = randomUUID();
  const customerId = await sandbox.ensureCustomer({ userId, email, name: null });
  const sub = await sandbox.createSubscription({ customerId, userId, idempotencyKey: email });
  return { sub, clientSecret: sub.clientSecret! };
}

const card = (clientSecret: string, cardNumber: string) =>
  sandbox.confirmIntent({ clientSecret, cardNumber, expiry: '12 / 34', cvc: '123' });

describe('sandbox intent transitions', () => {
  it('a decline racing a successful payment cannot turn the paid intent back to unpaid', async () => {
    const { sub, clientSecret } = await pendingSubscription('race@example.com');
    const [ok, declined] = await Promise.allSettled([
      card(clientSecret, '4242424242424242'),
      card(clientSecret, '4000000000000002'),
    ]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { status: 'succeeded' } });
    expect(declined.status).toBe('rejected');
    const intentId = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
    const intent = await createSandboxStore(db.db).get<{ id: string; object: string; status: string }>(
      intentId,
    );
    expect(intent?.status).toBe('succeeded');
    expect((await sandbox.retrieveSubscription(sub.id))?.status).toBe('active');
  });

  it('refuses a client secret that does not match, whatever its shape', async () => {
    const { clientSecret } = await pendingSubscription('secret@example.com');
    for (const wrong of [`${clientSecret}x`, clientSecret.slice(0, -1), 'no-secret-here', '_secret_x']) {
      await expect(card(wrong, '4242424242424242')).rejects.toBeInstanceOf(SandboxCardError);
    }
    expect((await card(clientSecret, '4242424242424242')).status).toBe('succeeded');
  });
});
