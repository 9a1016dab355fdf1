// Reads `docker compose config` output (JSON or YAML-as-JSON via stdin) and checks that each
// app service's resolved environment passes the server's own config parser, as the container
// would at start-up. Used by deploy/check.sh.
import { readFileSync } from 'node:fs';
import { loadConfig } from '../apps/server/src/config.js';

const resolved = JSON.parse(readFileSync(0, 'utf8')) as {
  services: Record<string, { environment?: Record<string, string | null> }>;
};
let failed = false;
for (const name of ['app-a', 'app-b']) {
  const env = Object.fromEntries(
    Object.entries(resolved.services[name]?.environment ?? {}).filter(([, v]) => v !== null),
  ) as NodeJS.ProcessEnv;
  try {
    const c = loadConfig(env);
    console.log(`ok - ${name}: the server accepts its environment (listens ${c.host}:${c.port})`);
  } catch (e) {
    failed = true;
    console.log(`not ok - ${name}: ${(e as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
