// Adds up Vitest JSON reports and prints the closing line "N passed, N failed".
// Failures are read from each report's own fields, so nothing can hide one:
// - a failed test counts once;
// - a test file that failed without a failed test (a throwing beforeAll, whose tests the report
//   lists as skipped, or a file that did not load) counts once;
// - a report whose run was not a success (`success: false`, e.g. an unhandled error or rejection
//   outside any test) but shows no failure above counts once;
// - a missing or unreadable report (a suite that crashed before reporting) counts once;
// - a runner that exited non-zero (SUITE_EXIT_CODES) while nothing above failed counts once.
import { existsSync, readFileSync } from 'node:fs';

/** @returns {{ passed: number, failed: number, skipped: number, reasons: string[] }} */
export function summarize(files, exitCodes = []) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const reasons = [];
  for (const file of files) {
    let r;
    try {
      if (!existsSync(file)) throw new Error('no report');
      r = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      reasons.push(`${file}: ${err instanceof Error ? err.message : String(err)}: counted as a failure`);
      failed += 1;
      continue;
    }
    let reportFailed = r.numFailedTests ?? 0;
    passed += r.numPassedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    for (const suite of r.testResults ?? []) {
      const tests = suite.assertionResults ?? [];
      if (suite.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
        reasons.push(`${suite.name}: failed outside its tests (setup error or load error)`);
        reportFailed += 1;
      }
    }
    if (r.success === false && reportFailed === 0) {
      reasons.push(`${file}: the run did not succeed (an unhandled error outside any test)`);
      reportFailed += 1;
    }
    failed += reportFailed;
  }
  for (const rc of exitCodes) {
    if (rc !== '0' && failed === 0) {
      reasons.push(`a suite exited with ${rc} without a failed test: counted as a failure`);
      failed += 1;
    }
  }
  return { passed, failed, skipped, reasons };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const exitCodes = (process.env.SUITE_EXIT_CODES ?? '').split(',').filter(Boolean);
  const { passed, failed, skipped, reasons } = summarize(process.argv.slice(2), exitCodes);
  for (const reason of reasons) console.error(reason);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}
