import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

/** The rule ids and messages ESLint gives `code` as if it were the file at `file` (repo-relative). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

// The boundaries DESIGN.md draws, kept by the linter (eslint.config.js): each case is code a
// newcomer might write, in the place where it is refused or allowed.
describe('the lint boundaries', () => {
  it('refuse an import of realtime/ from modules/, saying why', async () => {
    const found = await lint(
      'apps/server/src/modules/rooms/probe.ts',
      "import { createSockets } from '../../realtime/sockets.js';\nexport const s = createSockets;\n",
    );
    expect(found).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*modules\/ must not import realtime\//),
    ]);
  });

  it('refuse it from a module’s repository and tests too', async () => {
    for (const file of [
      'apps/server/src/modules/chat/repository.ts',
      'apps/server/src/modules/chat/x.test.ts',
    ]) {
      const found = await lint(
        file,
        "import type { Conn } from '../../realtime/types.js';\nexport type C = Conn;\n",
      );
      expect(found, file).toHaveLength(1);
    }
  });

  it('let realtime/ import the ports of modules/', async () => {
    const found = await lint(
      'apps/server/src/realtime/probe.ts',
      "import type { RoomTransport } from '../modules/rooms/transport.js';\nexport type T = RoomTransport;\n",
    );
    expect(found).toEqual([]);
  });

  it('keep each vendor SDK in its own provider folder, not in another provider’s', async () => {
    const stripe = "import Stripe from 'stripe';\nexport const s = Stripe;\n";
    expect(await lint('apps/server/src/providers/payments/probe.ts', stripe)).toEqual([]);
    expect(await lint('apps/server/src/providers/bus/probe.ts', stripe)).toEqual([
      expect.stringMatching(/Reach stripe through its adapter in apps\/server\/src\/providers\/payments/),
    ]);
    expect(await lint('apps/server/src/modules/billing/probe.ts', stripe)).toHaveLength(1);
    const redis = "import { Redis } from 'ioredis';\nexport const r = Redis;\n";
    expect(await lint('apps/server/src/providers/bus/probe.ts', redis)).toEqual([]);
    expect(await lint('apps/server/src/providers/media/probe.ts', redis)).toHaveLength(1);
  });
});
