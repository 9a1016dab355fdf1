// Adds up Vitest JSON reports and prints the closing line "N passed, N failed".
// A report that is missing (a suite that crashed before reporting) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`no report at ${file}: counting the suite as failed`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // Files that failed to load report no tests; count each as a failure.
  for (const suite of r.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) failed += 1;
  }
}
// A runner that exited non-zero without a failed test (unhandled errors outside any test) counts
// as one failure, so the closing line never says "0 failed" for a failed run.
for (const rc of (process.env.SUITE_EXIT_CODES ?? '').split(',').filter(Boolean)) {
  if (rc !== '0' && failed === 0) {
    console.error(
      `a suite exited with ${rc} without a failed test (errors outside tests): counted as a failure`,
    );
    failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
