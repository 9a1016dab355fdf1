import { COLLABORATION_BOUNDS, COLLABORATION_DOC } from '@parley/protocol';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import {
  Awareness,
  applyAwarenessUpdate,
  encodeAwarenessUpdate,
  removeAwarenessStates,
} from 'y-protocols/awareness';
import * as Y from 'yjs';

/** Why an update was refused (the handler turns it into a WS error; nothing was changed). */
export type Refusal = { code: 'bad_message' | 'too_large' | 'forbidden' | 'rate_limited'; message: string };

export type ApplyResult = { ok: true; changed: boolean } | { ok: false; refusal: Refusal };

const MALFORMED = 'The collaboration update could not be read; nothing was changed';

/** Clients one participant may own in the awareness (a tab per whiteboard and notes, reloads). */
const MAX_AWARENESS_CLIENTS_PER_PARTICIPANT = 16;

/** The document's root types: the whiteboard (a map of elements) and the notes (TipTap). */
const ROOTS = new Set<string>(Object.values(COLLABORATION_DOC));

/**
 * The limits an update is checked against. Bytes are not enough: a Yjs item costs 15-35 times
 * its encoding in memory (about 620 bytes of heap per one-byte map entry, measured), so items
 * are bounded too.
 */
export interface DocumentLimits {
  /** The persisted (encoded) size cap. */
  maxDocumentBytes: number;
  /** Structs (items) one update may add. */
  maxItemsPerUpdate: number;
  /** Structs the document may hold. */
  maxDocumentItems: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxDocumentBytes: COLLABORATION_BOUNDS.maxDocumentBytes,
  // A whiteboard change is one item per element changed (Excalidraw sends a few per stroke), a
  // typed character one item: 1,000 is far over what a person's change holds (a 44 KiB update
  // of the smallest items holds about 2,000).
  maxItemsPerUpdate: 1_000,
  // About 60 MB of heap at the measured cost of the smallest items; a board of 10,000 strokes
  // drawn, moved and edited stays well below it.
  maxDocumentItems: 100_000,
};

/**
 * One meeting's collaboration document, in memory: the Yjs document and the awareness (cursors
 * and names).
 *
 * An update is checked before it touches the document: it must decode, add at most
 * `maxItemsPerUpdate` items, write only the known root types, and keep the document within its
 * bytes and items. Yjs may still throw while integrating a decodable but inconsistent update: then
 * the document is rebuilt from the last snapshot and the updates accepted since (kept encoded, a
 * small fraction of the document's memory), so a refused update never stays half applied. There is
 * no second live copy of the document (a mirror doubled its memory).
 */
export class MeetingDocument {
  private current = new Y.Doc({ gc: true });
  readonly awareness: Awareness;
  /** Persisted size after the last snapshot plus the updates since (an upper bound of the size). */
  private estimatedBytes: number;
  /** The last snapshot and the updates accepted since: what a rebuild starts from. */
  private base: Uint8Array | null;
  private accepted: Uint8Array[] = [];
  /** The whole state, encoded, while nothing changed since it was made (the late joiner's answer). */
  private fullState: Uint8Array | null = null;
  /** Structs in the document (counted after each change). */
  items = 0;
  /** Awareness client ids → the participant that speaks for them. */
  private readonly awarenessOwners = new Map<number, string>();
  dirty = false;
  lastActivity = Date.now();

  constructor(
    snapshot: Uint8Array | null,
    /** Read at each update, so a test can lower the caps of an open document. */
    private readonly limits: Partial<DocumentLimits> = DEFAULT_DOCUMENT_LIMITS,
  ) {
    if (snapshot && snapshot.length > 0) Y.applyUpdate(this.current, snapshot);
    this.base = snapshot && snapshot.length > 0 ? snapshot : null;
    this.estimatedBytes = snapshot?.length ?? 0;
    this.items = countItems(this.current);
    this.awareness = new Awareness(this.current);
    // The server has no cursor of its own.
    this.awareness.setLocalState(null);
  }

  /** The Yjs document (a rebuild replaces it: read it here each time, do not keep it). */
  get doc(): Y.Doc {
    return this.current;
  }

  private limit<K extends keyof DocumentLimits>(k: K): number {
    return this.limits[k] ?? DEFAULT_DOCUMENT_LIMITS[k];
  }

  /** The compacted snapshot to persist (Y.encodeStateAsUpdate: the whole state, merged). */
  snapshot(): Uint8Array {
    const state = this.fullState ?? Y.encodeStateAsUpdate(this.current);
    this.estimatedBytes = state.length;
    this.fullState = state;
    this.base = state;
    this.accepted = [];
    this.items = countItems(this.current);
    return state;
  }

  /**
   * Checks `update`, then applies it to the document. `itemsLeft`: how many more items the
   * instance's open documents may hold (the service's per-instance cap).
   */
  apply(update: Uint8Array, origin: string, itemsLeft = Infinity): ApplyResult {
    this.lastActivity = Date.now();
    if (update.length === 0 || update.length > COLLABORATION_BOUNDS.maxUpdateBytes) {
      return refuse('bad_message', MALFORMED);
    }
    const max = this.limit('maxDocumentBytes');
    if (this.estimatedBytes + update.length > max) {
      // The estimate only grows; measure before refusing.
      this.snapshot();
      if (this.estimatedBytes + update.length > max) {
        return refuse('too_large', fullMessage(max));
      }
    }
    let decoded: ReturnType<typeof Y.decodeUpdate>;
    try {
      // Reads every struct and delete set: a malformed update throws here.
      decoded = Y.decodeUpdate(update);
    } catch {
      return refuse('bad_message', MALFORMED);
    }
    const adds = decoded.structs.length;
    if (adds > this.limit('maxItemsPerUpdate')) {
      return refuse('too_large', `This change holds too many parts (${adds}); nothing was changed`);
    }
    for (const struct of decoded.structs) {
      if (struct instanceof Y.Item && typeof struct.parent === 'string' && !ROOTS.has(struct.parent)) {
        return refuse(
          'bad_message',
          'The update writes outside the whiteboard and notes; nothing was changed',
        );
      }
    }
    if (this.items + adds > this.limit('maxDocumentItems') || adds > itemsLeft) {
      return refuse('too_large', fullMessage(max));
    }
    const before = Y.encodeStateVector(this.current);
    try {
      Y.applyUpdate(this.current, update, origin);
    } catch {
      this.rebuild();
      return refuse('bad_message', MALFORMED);
    }
    const changed = !sameBytes(before, Y.encodeStateVector(this.current)) || decoded.ds.clients.size > 0;
    if (changed) this.took(update, adds);
    return { ok: true, changed };
  }

  /**
   * An update another server instance took (it ran the checks above): applied here too, so every
   * instance's copy of the document is the same. Not marked dirty: the instance that took it
   * saves it. A state that does not apply leaves the document as it was.
   */
  applyRemote(update: Uint8Array): void {
    try {
      Y.applyUpdate(this.current, update);
    } catch {
      this.rebuild();
      return;
    }
    const dirty = this.dirty;
    this.took(update, null);
    this.dirty = dirty;
    this.lastActivity = Date.now();
  }

  /** An update is in: `adds` its structs (an upper bound: Yjs merges some), null to count. */
  private took(update: Uint8Array, adds: number | null): void {
    this.accepted.push(update);
    this.estimatedBytes += update.length;
    this.fullState = null;
    this.items = adds === null ? countItems(this.current) : this.items + adds;
    this.dirty = true;
  }

  /** What a client with `stateVector` lacks, and the server's own state vector. */
  diff(stateVector: Uint8Array): { update: Uint8Array; stateVector: Uint8Array } | null {
    try {
      // A client with nothing (a late joiner, a reload) gets the cached whole state: thirty
      // of them in a row encode the document once, not thirty times.
      const empty = Y.decodeStateVector(stateVector).size === 0;
      if (empty) this.fullState ??= Y.encodeStateAsUpdate(this.current);
      return {
        update: empty ? this.fullState! : Y.encodeStateAsUpdate(this.current, stateVector),
        stateVector: Y.encodeStateVector(this.current),
      };
    } catch {
      return null;
    }
  }

  /**
   * An awareness update from `participantId` named `name`: at most a few client states, each
   * client id owned by one participant, the `user.name` in each state set to the server's record
   * of the participant (never what the client claimed). Answers the update to pass on, or why not.
   */
  applyAwareness(
    update: Uint8Array,
    participantId: string,
    name: string,
  ): { ok: true; update: Uint8Array } | { ok: false; refusal: Refusal } {
    this.lastActivity = Date.now();
    let entries: Array<{ client: number; clock: number; state: unknown }>;
    try {
      entries = readAwareness(update);
    } catch {
      return refuse('bad_message', 'The awareness update could not be read');
    }
    const owned = [...this.awarenessOwners.values()].filter((p) => p === participantId).length;
    let fresh = 0;
    for (const e of entries) {
      const owner = this.awarenessOwners.get(e.client);
      if (owner !== undefined && owner !== participantId) {
        return refuse('forbidden', 'That cursor belongs to another participant');
      }
      if (owner === undefined) fresh++;
      if (e.state !== null && (typeof e.state !== 'object' || Array.isArray(e.state))) {
        return refuse('bad_message', 'An awareness state must be an object or null');
      }
    }
    if (owned + fresh > MAX_AWARENESS_CLIENTS_PER_PARTICIPANT) {
      return refuse('forbidden', 'Too many cursors for one participant');
    }
    for (const e of entries) {
      this.awarenessOwners.set(e.client, participantId);
      if (e.state && typeof e.state === 'object') {
        const state = e.state as Record<string, unknown>;
        const user =
          state.user && typeof state.user === 'object' ? (state.user as Record<string, unknown>) : {};
        state.user = { ...user, name };
      }
    }
    const rewritten = writeAwareness(entries);
    applyAwarenessUpdate(this.awareness, rewritten, participantId);
    return { ok: true, update: rewritten };
  }

  /** The awareness states the server knows, as one update (for a joining client); null if none. */
  awarenessState(): Uint8Array | null {
    const clients = [...this.awareness.getStates().keys()];
    return clients.length ? encodeAwarenessUpdate(this.awareness, clients) : null;
  }

  /** A participant left: its cursors go. Answers the update telling the others, or null. */
  forgetParticipant(participantId: string): Uint8Array | null {
    const clients = [...this.awarenessOwners].filter(([, p]) => p === participantId).map(([c]) => c);
    for (const c of clients) this.awarenessOwners.delete(c);
    const present = clients.filter((c) => this.awareness.getStates().has(c));
    if (!present.length) return null;
    removeAwarenessStates(this.awareness, present, 'server');
    return encodeAwarenessUpdate(this.awareness, present);
  }

  destroy(): void {
    this.awareness.destroy();
    this.current.destroy();
  }

  /**
   * The document again from the last snapshot and the updates accepted since: what an update
   * that threw half way may have left is gone. The awareness keeps its states (it only uses the
   * document's client id); the old document is left to the garbage collector, not destroyed,
   * since destroying it would destroy the awareness too.
   */
  private rebuild(): void {
    const doc = new Y.Doc({ gc: true });
    const parts = [...(this.base ? [this.base] : []), ...this.accepted];
    if (parts.length > 0) Y.applyUpdate(doc, Y.mergeUpdates(parts));
    this.current = doc;
    this.fullState = null;
    this.items = countItems(doc);
  }
}

export function fullMessage(maxBytes: number): string {
  return `The whiteboard and notes of this meeting have reached their limit of ${formatBytes(maxBytes)}. Nothing more can be added; export the board or copy the notes to keep what you need.`;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(n / 1024)} KB`;
}

function refuse(code: Refusal['code'], message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { code, message } };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The structs (items, GCs, skips) in the document's store: O(clients). */
function countItems(doc: Y.Doc): number {
  let n = 0;
  doc.store.clients.forEach((structs) => (n += structs.length));
  return n;
}

/** The y-protocols awareness wire format: count, then (client, clock, JSON state) each. */
function readAwareness(update: Uint8Array): Array<{ client: number; clock: number; state: unknown }> {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  if (count === 0 || count > 4) throw new Error('awareness update with an unexpected number of states');
  const entries = [];
  for (let i = 0; i < count; i++) {
    const client = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const state: unknown = JSON.parse(decoding.readVarString(decoder));
    entries.push({ client, clock, state });
  }
  if (decoding.hasContent(decoder)) throw new Error('trailing bytes after the awareness states');
  return entries;
}

function writeAwareness(entries: Array<{ client: number; clock: number; state: unknown }>): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, entries.length);
  for (const e of entries) {
    encoding.writeVarUint(encoder, e.client);
    encoding.writeVarUint(encoder, e.clock);
    encoding.writeVarString(encoder, JSON.stringify(e.state));
  }
  return encoding.toUint8Array(encoder);
}
