import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { USAGE_REPORT_QUEUE } from '../billing/plugin.js';
import { RETENTION_QUEUE } from '../retention/plugin.js';

/** The retention run and the overage usage reports are queue jobs, retried when they fail. */
describe('retention and usage reports on the job queue', () => {
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestApp({ JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' });
  });
  afterAll(async () => t?.close());

  it('runs the retention job and runs it again after a failed run', async () => {
    const run = vi
      .spyOn(t.app.retention, 'runOnce')
      .mockRejectedValueOnce(new Error('database away'))
      .mockResolvedValueOnce({ purged: {} } as never);
    await t.app.jobs.enqueue(RETENTION_QUEUE, [{ at: new Date().toISOString() }]);
    await t.app.jobs.idle(30_000);
    expect(run).toHaveBeenCalledTimes(2);
    run.mockRestore();
  }, 40_000);

  it('retries an overage usage report until the payments provider accepts it', async () => {
    const entry = {
      ledgerId: 'ledger-1',
      accountId: 'account-1',
      publicMeetingId: '123-456-789',
      minute: 61,
    };
    const report = vi
      .spyOn(t.app.billing, 'report')
      .mockRejectedValueOnce(new Error('provider 503'))
      .mockRejectedValueOnce(new Error('provider 503'))
      .mockResolvedValueOnce(undefined);
    await t.app.jobs.enqueue(USAGE_REPORT_QUEUE, [entry]);
    await t.app.jobs.idle(30_000);
    expect(report).toHaveBeenCalledTimes(3);
    // Each attempt reports the same ledger entry: the provider's idempotency key is its id.
    for (const call of report.mock.calls) expect(call[0]).toEqual(entry);
    report.mockRestore();
  }, 40_000);
});
