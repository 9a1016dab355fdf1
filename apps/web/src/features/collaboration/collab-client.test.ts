import type { ClientMessage, ServerMessageOf, ServerMessageType } from '@parley/protocol/ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { CollabClient, type CollabSignal } from './collab-client';

const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** A signal client double: records what is sent, delivers server messages by type. */
class FakeSignal implements CollabSignal {
  state = 'joined';
  sent: ClientMessage[] = [];
  private handlers = new Map<string, Set<(m: never) => void>>();
  private listeners = new Set<() => void>();
  on<T extends ServerMessageType>(type: T, handler: (m: ServerMessageOf<T>) => void) {
    const set = this.handlers.get(type) ?? new Set();
    set.add(handler as (m: never) => void);
    this.handlers.set(type, set);
    return () => set.delete(handler as (m: never) => void);
  }
  deliver(message: { type: string } & Record<string, unknown>) {
    for (const h of this.handlers.get(message.type) ?? []) h(message as never);
  }
  send(msg: ClientMessage) {
    this.sent.push(msg);
  }
  subscribe(l: () => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  setState(s: string) {
    this.state = s;
    for (const l of this.listeners) l();
  }
  collab(kind: string) {
    return this.sent.filter(
      (m) => m.type === 'collaboration_update' && (m.data as { kind: string }).kind === kind,
    ) as unknown as Array<{ data: { kind: string; update?: string; stateVector?: string } }>;
  }
}

/** The server's answer to a sync request, split into `parts`. */
function syncAnswer(server: Y.Doc, clientSv: Uint8Array, parts: number) {
  const update = Y.encodeStateAsUpdate(server, clientSv);
  const size = Math.ceil(update.length / parts);
  return Array.from({ length: parts }, (_, part) => ({
    type: 'collaboration_sync',
    syncId: 's1',
    part,
    parts,
    update: b64(update.subarray(part * size, (part + 1) * size)),
    stateVector: part === parts - 1 ? b64(Y.encodeStateVector(server)) : '',
    awareness: '',
  }));
}

describe('CollabClient', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for what it lacks, takes a multi-part answer and sends back what the server lacks', () => {
    const signal = new FakeSignal();
    const client = new CollabClient(signal);
    const [request] = signal.collab('sync_request');
    expect(request).toBeDefined();
    // Edits made before the answer arrives (e.g. offline) are sent back after it.
    client.doc.getMap('whiteboard').set('mine', { id: 'mine' });
    const server = new Y.Doc();
    server.getMap('whiteboard').set('theirs', { id: 'theirs', text: 'x'.repeat(500) });
    const parts = syncAnswer(server, unb64(request!.data.stateVector!), 3);
    signal.deliver(parts[2]!);
    signal.deliver(parts[0]!);
    expect(client.doc.getMap('whiteboard').has('theirs')).toBe(false);
    signal.deliver(parts[1]!);
    expect(client.doc.getMap('whiteboard').get('theirs')).toMatchObject({ id: 'theirs' });
    expect(client.getSnapshot().status).toBe('synced');
    const back = signal.collab('update').at(-1)!;
    Y.applyUpdate(server, unb64(back.data.update!));
    expect(server.getMap('whiteboard').get('mine')).toEqual({ id: 'mine' });
    client.destroy();
  });

  it('merges local changes and sends them while joined; offline, the next sync carries them', () => {
    const signal = new FakeSignal();
    const client = new CollabClient(signal);
    const map = client.doc.getMap('whiteboard');
    map.set('a', 1);
    map.set('b', 2);
    vi.advanceTimersByTime(60);
    expect(signal.collab('update')).toHaveLength(1);
    signal.setState('reconnecting');
    expect(client.getSnapshot().status).toBe('offline');
    map.set('c', 3);
    vi.advanceTimersByTime(60);
    expect(signal.collab('update')).toHaveLength(1);
    signal.setState('joined');
    signal.deliver({ type: 'joined' });
    const request = signal.collab('sync_request').at(-1)!;
    const server = new Y.Doc();
    Y.applyUpdate(server, unb64(signal.collab('update')[0]!.data.update!));
    for (const p of syncAnswer(server, unb64(request.data.stateVector!), 1)) signal.deliver(p);
    Y.applyUpdate(server, unb64(signal.collab('update').at(-1)!.data.update!));
    expect(server.getMap('whiteboard').toJSON()).toEqual({ a: 1, b: 2, c: 3 });
    client.destroy();
  });

  it('syncs again when an update arrives whose predecessor was dropped', () => {
    const signal = new FakeSignal();
    const client = new CollabClient(signal);
    const request = signal.collab('sync_request')[0]!;
    for (const p of syncAnswer(new Y.Doc(), unb64(request.data.stateVector!), 1)) signal.deliver(p);
    const other = new Y.Doc();
    const updates: Uint8Array[] = [];
    other.on('update', (u: Uint8Array) => updates.push(u));
    other.getMap('whiteboard').set('first', 1);
    other.getMap('whiteboard').set('second', 2);
    // The first update never arrives (dropped for a slow reader).
    signal.deliver({
      type: 'collaboration_update',
      fromParticipant: 'p',
      data: { kind: 'update', update: b64(updates[1]!) },
    });
    expect(signal.collab('sync_request')).toHaveLength(2);
    client.destroy();
  });
});
