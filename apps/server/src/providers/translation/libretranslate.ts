import { TRANSLATION_LANGUAGES } from '@parley/protocol';
import { z } from 'zod';
import { AiProviderError, apiErrorMessage } from './openai-chat.js';
import { type Translator, UnsupportedLanguageError } from './types.js';

export interface LibreTranslateOptions {
  url: string;
  apiKey: string | undefined;
  timeoutMs?: number;
}

const languagesSchema = z.array(
  z.object({
    code: z.string(),
    /** Missing in LibreTranslate before 1.3: every language then translates to every other. */
    targets: z.array(z.string()).optional(),
  }),
);
const translateSchema = z.object({ translatedText: z.string() });

/**
 * A LibreTranslate server (`LIBRETRANSLATE_URL`, optional key). What it serves depends on the
 * models its operator installed, so the pairs come from its `GET /languages`, asked once and kept;
 * until that answer is in, nothing is reported supported (never guessed) — `ready()` waits for it.
 */
export class LibreTranslateTranslator implements Translator {
  readonly name = 'libretranslate';
  /** spec code → the server's code (newer servers say `zh-Hans`, `pt-BR` where we say zh, pt). */
  private codes = new Map<string, string>();
  /** spec code → spec codes it translates into. */
  private pairs = new Map<string, Set<string>>();
  private loading: Promise<void> | null = null;

  constructor(private readonly options: LibreTranslateOptions) {}

  /** Resolves once the server's languages are known; rejects (and is retried later) if they are not. */
  ready(): Promise<void> {
    this.loading ??= this.loadLanguages().catch((err: unknown) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  supports(from: string, to: string): boolean {
    if (from === to) return (TRANSLATION_LANGUAGES as readonly string[]).includes(from);
    return this.pairs.get(from)?.has(to) ?? false;
  }

  targets(from: string): string[] {
    return TRANSLATION_LANGUAGES.filter((to) => this.supports(from, to));
  }

  async translate(text: string, from: string, to: string): Promise<string> {
    if (from !== to) await this.ready();
    if (!this.supports(from, to)) throw new UnsupportedLanguageError(from, to);
    if (from === to || text.trim() === '') return text;
    const json = await this.call('POST', '/translate', {
      q: text,
      source: this.codes.get(from),
      target: this.codes.get(to),
      format: 'text',
      ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
    });
    const parsed = translateSchema.safeParse(json);
    if (!parsed.success) throw new AiProviderError('LibreTranslate answered without translatedText');
    return parsed.data.translatedText;
  }

  async close(): Promise<void> {
    // Nothing held open.
  }

  private async loadLanguages(): Promise<void> {
    const parsed = languagesSchema.safeParse(await this.call('GET', '/languages'));
    if (!parsed.success) throw new AiProviderError('LibreTranslate /languages answered an unexpected shape');
    const codes = new Map<string, string>();
    for (const spec of TRANSLATION_LANGUAGES) {
      const match =
        parsed.data.find((l) => l.code === spec) ?? parsed.data.find((l) => l.code.startsWith(`${spec}-`));
      if (match) codes.set(spec, match.code);
    }
    const specOf = new Map([...codes].map(([spec, theirs]) => [theirs, spec]));
    const pairs = new Map<string, Set<string>>();
    for (const [spec, theirs] of codes) {
      const entry = parsed.data.find((l) => l.code === theirs)!;
      const targets = entry.targets ?? parsed.data.map((l) => l.code);
      pairs.set(spec, new Set(targets.flatMap((t) => specOf.get(t) ?? []).filter((t) => t !== spec)));
    }
    this.codes = codes;
    this.pairs = pairs;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const url = `${this.options.url.replace(/\/+$/, '')}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new AiProviderError(
        `${url} could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const raw = await res.text();
    if (!res.ok) throw new AiProviderError(`${url} answered ${res.status}: ${apiErrorMessage(raw)}`);
    try {
      return JSON.parse(raw);
    } catch {
      throw new AiProviderError(`${url} answered with something that is not JSON: ${raw.slice(0, 200)}`);
    }
  }
}
