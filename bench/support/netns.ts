import { spawnSync } from 'node:child_process';

/**
 * As root, runs the calling benchmark again inside a private network namespace with only loopback
 * up, so browser media stays on loopback as in the e2e suite (TESTING-MEDIA.md), then exits with
 * its status. Elsewhere (or when unshare is missing) it returns and the bench runs on the host.
 */
export function reexecInNetns(file: string): void {
  if (process.getuid?.() !== 0 || process.env.PARLEY_NETNS) return;
  const r = spawnSync(
    'unshare',
    ['--net', 'bash', '-c', 'ip link set lo up && exec "$@"', '_', process.execPath, '--import', 'tsx', file],
    { stdio: 'inherit', env: { ...process.env, PARLEY_NETNS: '1' } },
  );
  if (r.error) console.warn(`no network namespace (${r.error.message}); running on the host network`);
  else process.exit(r.status ?? 1);
}
