import type { Config } from '../config.js';
import { type AiLog, createTranslator } from '../providers/translation/index.js';

const USAGE = 'usage: npm run ai -- translate --to LANG [--from LANG] TEXT';

/** Start-up chatter stays out of the way; warnings (a provider that cannot be reached) go to stderr. */
const log: AiLog = { info: () => undefined, warn: (...args: unknown[]) => console.error(...args) };

/**
 * `npm run ai -- translate --to es [--from en] TEXT`: prints the translation of TEXT with the same
 * translator (provider, configuration) as the server. A pair the engine cannot serve exits 2 with
 * what it can serve instead; translation off or unavailable exits 1 with the reason.
 */
export async function translateCommand(args: string[], config: Config): Promise<number> {
  let to: string | undefined;
  let from = 'en';
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--to') to = args[++i];
    else if (arg === '--from') from = args[++i] ?? '';
    else if (arg.startsWith('--to=')) to = arg.slice(5);
    else if (arg.startsWith('--from=')) from = arg.slice(7);
    else words.push(arg);
  }
  const text = words.join(' ').trim();
  if (!to || !from || !text) {
    console.error(USAGE);
    return 2;
  }

  const { translator, reason } = createTranslator(config.ai, log);
  if (!translator) {
    console.error(`translation is off: ${reason ?? 'unknown reason'}`);
    return 1;
  }
  try {
    await translator.ready?.();
    if (!translator.supports(from, to)) {
      const reachable = translator.targets(from).filter((t) => t !== from);
      console.error(
        `${translator.name} cannot translate from ${from} to ${to}` +
          (reachable.length > 0
            ? `; from ${from} it translates to: ${reachable.join(', ')}`
            : `; it does not read ${from}`),
      );
      return 2;
    }
    console.log(await translator.translate(text, from, to));
    return 0;
  } catch (err) {
    console.error(`cannot translate: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await translator.close();
  }
}
