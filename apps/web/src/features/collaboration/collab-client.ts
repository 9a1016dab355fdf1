import { collaborationBroadcastSchema, type CollaborationSync } from '@parley/protocol/collaboration';
import { COLLABORATION_BOUNDS } from '@parley/protocol/constants';
import type { ClientMessage, ServerMessageOf, ServerMessageType } from '@parley/protocol/ws';
import {
  Awareness,
  applyAwarenessUpdate,
  encodeAwarenessUpdate,
  removeAwarenessStates,
} from 'y-protocols/awareness';
import * as Y from 'yjs';
import { Store } from '@/lib/store';

/** What the collaboration client needs of the room's SignalClient. */
export interface CollabSignal {
  readonly state: string;
  on<T extends ServerMessageType>(type: T, handler: (m: ServerMessageOf<T>) => void): () => void;
  send(msg: ClientMessage): void;
  subscribe(listener: () => void): () => void;
}

export type CollabStatus = 'connecting' | 'synced' | 'offline';

export interface CollabSnapshot {
  status: CollabStatus;
  /** The server refused to take more (the meeting's document is full): its message. */
  full: string | null;
}

const LOCAL = Symbol('local');
const REMOTE = Symbol('remote');
/** Local changes are sent at most this often, merged (a stroke is many small updates). */
const SEND_EVERY_MS = 50;
/** Cursor moves are sent at most this often. */
const AWARENESS_EVERY_MS = 80;
/** A sync answer whose parts stop coming is asked for again after this long. */
const SYNC_TIMEOUT_MS = 5000;

const b64 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};
const unb64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/**
 * The meeting's collaboration document on this side (whiteboard and notes, one Yjs document),
 * kept in step with the server's over the room socket: on every `joined` (first entry, resume
 * after a drop, reload) it asks for what it lacks and sends what the server lacks, so a late
 * joiner sees the current board and edits made while offline are not lost; local changes are
 * merged and sent every 50 ms; cursors go through the awareness. An error from the server (a
 * refused or rate-limited update) or an update with missing dependencies (a dropped message)
 * makes it sync again, which repairs either side.
 */
export class CollabClient {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  private readonly store = new Store<CollabSnapshot>({ status: 'connecting', full: null });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;
  private readonly offs: Array<() => void> = [];
  private outbox: Uint8Array[] = [];
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private awarenessTimer: ReturnType<typeof setTimeout> | null = null;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private parts: { syncId: string; got: CollaborationSync[] } | null = null;
  private syncing = false;
  private destroyed = false;

  constructor(private readonly signal: CollabSignal) {
    this.doc.on('update', this.onDocUpdate);
    this.awareness.on('update', this.onAwarenessUpdate);
    this.offs.push(
      signal.on('joined', () => this.requestSync()),
      signal.on('collaboration_sync', (m) => this.onSync(m)),
      signal.on('collaboration_update', (m) => this.onRemote(m.data)),
      signal.on('error', (m) => this.onError(m)),
      signal.subscribe(() => {
        if (signal.state !== 'joined' && this.store.getSnapshot().status !== 'offline') {
          this.store.patch({ status: 'offline' });
          this.syncing = false;
        }
      }),
    );
    if (signal.state === 'joined') this.requestSync();
    else this.store.patch({ status: 'offline' });
  }

  /** This participant's name and colour, shown with its cursor to the others. */
  setUser(name: string, color: string): void {
    this.awareness.setLocalStateField('user', { name, color });
  }

  destroy(): void {
    this.destroyed = true;
    for (const off of this.offs) off();
    for (const t of [this.sendTimer, this.awarenessTimer, this.syncTimer]) if (t) clearTimeout(t);
    if (this.signal.state === 'joined') {
      removeAwarenessStates(this.awareness, [this.doc.clientID], LOCAL);
      this.flushAwareness();
    }
    this.awareness.destroy();
    this.doc.destroy();
  }

  // ---------------------------------------------------------------- sync

  private requestSync(): void {
    if (this.destroyed || this.signal.state !== 'joined' || this.syncing) return;
    this.syncing = true;
    this.parts = null;
    this.store.patch({ status: this.store.getSnapshot().status === 'synced' ? 'synced' : 'connecting' });
    this.signal.send({
      type: 'collaboration_update',
      data: { kind: 'sync_request', stateVector: b64(Y.encodeStateVector(this.doc)) },
    });
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => {
      this.syncing = false;
      this.requestSync();
    }, SYNC_TIMEOUT_MS);
  }

  private onSync(m: CollaborationSync): void {
    if (!this.parts || this.parts.syncId !== m.syncId) this.parts = { syncId: m.syncId, got: [] };
    this.parts.got[m.part] = m;
    if (this.parts.got.filter(Boolean).length < m.parts) return;
    const got = this.parts.got;
    this.parts = null;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncing = false;
    const chunks = got.map((p) => unb64(p.update));
    const update = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      update.set(c, at);
      at += c.length;
    }
    Y.applyUpdate(this.doc, update, REMOTE);
    const last = got[got.length - 1]!;
    if (last.awareness) applyAwarenessUpdate(this.awareness, unb64(last.awareness), REMOTE);
    // What this side has that the server lacks (edits made while offline, a refused send).
    const mine = Y.encodeStateAsUpdate(this.doc, unb64(last.stateVector));
    if (mine.length > 2) this.sendUpdate(mine);
    this.outbox = [];
    this.store.patch({ status: 'synced' });
    // Tell the others where this cursor is (the awareness is renewed by y-protocols every 15 s).
    if (this.awareness.getLocalState()) this.flushAwareness();
  }

  // ---------------------------------------------------------------- updates

  private readonly onDocUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === REMOTE) return;
    this.outbox.push(update);
    this.sendTimer ??= setTimeout(() => this.flushUpdates(), SEND_EVERY_MS);
  };

  private flushUpdates(): void {
    this.sendTimer = null;
    if (!this.outbox.length) return;
    // Offline, nothing is sent: the sync after the next `joined` carries these edits.
    if (this.signal.state !== 'joined') return;
    const merged = Y.mergeUpdates(this.outbox);
    this.outbox = [];
    this.sendUpdate(merged);
  }

  private sendUpdate(update: Uint8Array): void {
    if (update.length > COLLABORATION_BOUNDS.maxUpdateBytes) {
      this.store.patch({
        full: `That change is too large to share (over ${Math.round(COLLABORATION_BOUNDS.maxUpdateBytes / 1024)} KB). Split it into smaller pieces.`,
      });
      return;
    }
    this.signal.send({ type: 'collaboration_update', data: { kind: 'update', update: b64(update) } });
  }

  private onRemote(data: Record<string, unknown>): void {
    const parsed = collaborationBroadcastSchema.safeParse(data);
    if (!parsed.success) return;
    const bytes = unb64(parsed.data.update);
    if (parsed.data.kind === 'awareness') {
      applyAwarenessUpdate(this.awareness, bytes, REMOTE);
      return;
    }
    Y.applyUpdate(this.doc, bytes, REMOTE);
    // A dropped message leaves later ones waiting for it: ask for the whole difference.
    if (this.doc.store.pendingStructs || this.doc.store.pendingDs) this.requestSync();
  }

  private onError(m: ServerMessageOf<'error'>): void {
    if (m.requestId) return;
    if (m.code === 'too_large') {
      this.store.patch({ full: m.message });
      return;
    }
    if (m.code === 'rate_limited' || m.code === 'bad_message') {
      // The server did not take something: a sync sends it again (and repairs this side).
      setTimeout(() => this.requestSync(), 1000);
    }
  }

  // ---------------------------------------------------------------- awareness

  private readonly onAwarenessUpdate = (
    { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    if (origin === REMOTE) return;
    const mine = [...added, ...updated, ...removed].includes(this.doc.clientID);
    if (!mine) return;
    this.awarenessTimer ??= setTimeout(() => this.flushAwareness(), AWARENESS_EVERY_MS);
  };

  private flushAwareness(): void {
    if (this.awarenessTimer) clearTimeout(this.awarenessTimer);
    this.awarenessTimer = null;
    if (this.signal.state !== 'joined') return;
    const update = encodeAwarenessUpdate(this.awareness, [this.doc.clientID]);
    this.signal.send({ type: 'collaboration_update', data: { kind: 'awareness', update: b64(update) } });
  }
}

export { LOCAL as LOCAL_ORIGIN };
