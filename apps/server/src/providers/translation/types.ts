/**
 * Translation of one line between spec §9 language codes. A pair the provider cannot serve is
 * reported by `supports` and never faked (the room marks that language unsupported).
 */
export interface Translator {
  /** For logs and the capabilities endpoint: 'apertium', 'libretranslate', 'openai-compatible'. */
  readonly name: string;
  supports(from: string, to: string): boolean;
  /** Target languages reachable from `from` (spec §9 codes). */
  targets(from: string): string[];
  /** Throws UnsupportedLanguageError for a pair `supports` refuses. Same language: the text. */
  translate(text: string, from: string, to: string): Promise<string>;
  /**
   * Optional: resolves once `supports`/`targets` are final. Only providers that must ask a server
   * what it serves (LibreTranslate's GET /languages) have it; until then they report nothing.
   */
  ready?(): Promise<void>;
  close(): Promise<void>;
}

export class UnsupportedLanguageError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`Translation from ${from} to ${to} is not supported by this server's translation engine`);
  }
}
