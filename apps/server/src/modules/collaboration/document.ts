import { COLLABORATION_BOUNDS } from '@parley/protocol';
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

/**
 * One meeting's collaboration document, in memory: the Yjs document, a mirror used to try
 * updates before they touch the real one, and the awareness (cursors and names).
 *
 * An update is applied to the mirror first: if Yjs throws there (a malformed or inconsistent
 * update), the mirror is rebuilt from the real document and the update is refused, so the real
 * document never sees it. Keeping the mirror costs a second copy of the document in memory but
 * makes each check O(update) instead of copying the whole document per update.
 */
export class MeetingDocument {
  readonly doc = new Y.Doc({ gc: true });
  private mirror = new Y.Doc({ gc: true });
  readonly awareness: Awareness;
  /** Persisted size after the last snapshot plus the updates since (an upper bound of the size). */
  private estimatedBytes: number;
  /** Awareness client ids → the participant that speaks for them. */
  private readonly awarenessOwners = new Map<number, string>();
  dirty = false;
  lastActivity = Date.now();

  constructor(
    snapshot: Uint8Array | null,
    /** Read at each update, so a test can lower the cap of an open document. */
    private readonly limits: { maxDocumentBytes: number } = COLLABORATION_BOUNDS,
  ) {
    if (snapshot && snapshot.length > 0) {
      Y.applyUpdate(this.doc, snapshot);
      Y.applyUpdate(this.mirror, snapshot);
    }
    this.estimatedBytes = snapshot?.length ?? 0;
    this.awareness = new Awareness(this.doc);
    // The server has no cursor of its own.
    this.awareness.setLocalState(null);
  }

  /** The compacted snapshot to persist (Y.encodeStateAsUpdate: the whole state, merged). */
  snapshot(): Uint8Array {
    const state = Y.encodeStateAsUpdate(this.doc);
    this.estimatedBytes = state.length;
    return state;
  }

  /** Tries `update` on the mirror, then applies it to the document. */
  apply(update: Uint8Array, origin: string): ApplyResult {
    this.lastActivity = Date.now();
    if (update.length === 0 || update.length > COLLABORATION_BOUNDS.maxUpdateBytes) {
      return refuse('bad_message', MALFORMED);
    }
    const max = this.limits.maxDocumentBytes;
    if (this.estimatedBytes + update.length > max) {
      // The estimate only grows; measure before refusing.
      this.snapshot();
      if (this.estimatedBytes + update.length > max) {
        return refuse('too_large', fullMessage(max));
      }
    }
    try {
      // Reads every struct and delete set: a malformed update throws here.
      Y.decodeUpdate(update);
    } catch {
      return refuse('bad_message', MALFORMED);
    }
    const before = Y.encodeStateVector(this.mirror);
    try {
      Y.applyUpdate(this.mirror, update, origin);
    } catch {
      this.rebuildMirror();
      return refuse('bad_message', MALFORMED);
    }
    const changed = !sameBytes(before, Y.encodeStateVector(this.mirror)) || hasDeletes(update);
    Y.applyUpdate(this.doc, update, origin);
    if (changed) {
      this.estimatedBytes += update.length;
      this.dirty = true;
    }
    return { ok: true, changed };
  }

  /**
   * An update another server instance took (it ran the checks above): applied here too, so every
   * instance's copy of the document is the same. Not marked dirty: the instance that took it
   * saves it. A state that does not apply leaves the document as it was.
   */
  applyRemote(update: Uint8Array): void {
    try {
      Y.applyUpdate(this.mirror, update);
    } catch {
      this.rebuildMirror();
      return;
    }
    Y.applyUpdate(this.doc, update);
    this.estimatedBytes += update.length;
    this.lastActivity = Date.now();
  }

  /** What a client with `stateVector` lacks, and the server's own state vector. */
  diff(stateVector: Uint8Array): { update: Uint8Array; stateVector: Uint8Array } | null {
    try {
      Y.decodeStateVector(stateVector);
      return {
        update: Y.encodeStateAsUpdate(this.doc, stateVector),
        stateVector: Y.encodeStateVector(this.doc),
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
    this.doc.destroy();
    this.mirror.destroy();
  }

  private rebuildMirror(): void {
    this.mirror.destroy();
    this.mirror = new Y.Doc({ gc: true });
    Y.applyUpdate(this.mirror, Y.encodeStateAsUpdate(this.doc));
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

/** Whether an update deletes anything (deletions do not move the state vector). */
function hasDeletes(update: Uint8Array): boolean {
  return Y.decodeUpdate(update).ds.clients.size > 0;
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
