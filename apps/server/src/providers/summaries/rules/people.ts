/**
 * The people of a meeting: the speakers of its lines and the participants' names. Owners are
 * matched against them, so "Luis, could you…" gives Luis only when a Luis is in the meeting, and
 * a capitalised word at the start of a sentence ("Okay, …") is not taken for a name.
 */
export class People {
  /** lower-cased first name (and full name) → the name to report. */
  private readonly byName = new Map<string, string>();
  private alternatives: string | undefined;

  constructor(speakers: string[], participants: string[]) {
    // Speakers first: their label is how the meeting names them; a participant's full name is
    // used when it is the only one with that first name.
    for (const name of [...speakers, ...participants]) {
      const clean = name.trim();
      if (!clean) continue;
      const lower = clean.toLowerCase();
      if (!this.byName.has(lower)) this.byName.set(lower, clean);
      const first = lower.split(/\s+/)[0]!;
      if (first !== lower && !this.byName.has(first)) this.byName.set(first, clean);
    }
  }

  /** The person a word (or "First Last") names, or null. */
  find(word: string): string | null {
    return this.byName.get(word.trim().toLowerCase()) ?? null;
  }

  /** A regular-expression alternative of every known name (longest first), for the phrase rules. */
  pattern(): string {
    // Asked once per sentence by the request rules: made once (the names do not change).
    this.alternatives ??= [...this.byName.keys()]
      .sort((a, b) => b.length - a.length)
      .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|');
    return this.alternatives;
  }

  get size(): number {
    return this.byName.size;
  }
}
