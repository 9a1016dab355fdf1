import type { ServerMessageOf } from '@parley/protocol';
import * as Y from 'yjs';
import type { TestSocket } from './ws-client.js';

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
export const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/** A client's copy of the document, sending its own changes as collaboration_update. */
export class Client {
  readonly doc = new Y.Doc();
  constructor(readonly socket: TestSocket) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== 'remote')
        socket.send({ type: 'collaboration_update', data: { kind: 'update', update: b64(update) } });
    });
  }
  get board() {
    return this.doc.getMap<Record<string, unknown>>('whiteboard');
  }
  /** Asks for what it lacks, applies the answer, sends what the server lacks. */
  async sync(): Promise<ServerMessageOf<'collaboration_sync'>[]> {
    this.socket.send({
      type: 'collaboration_update',
      data: { kind: 'sync_request', stateVector: b64(Y.encodeStateVector(this.doc)) },
    });
    const parts = [await this.socket.next('collaboration_sync')];
    while (parts.length < parts[0]!.parts) parts.push(await this.socket.next('collaboration_sync'));
    const update = Buffer.concat(parts.map((p) => Buffer.from(p.update, 'base64')));
    Y.applyUpdate(this.doc, new Uint8Array(update), 'remote');
    const serverSv = unb64(parts[parts.length - 1]!.stateVector);
    const mine = Y.encodeStateAsUpdate(this.doc, serverSv);
    // An empty update is 2 bytes (no structs, no deletes).
    if (mine.length > 2) {
      this.socket.send({ type: 'collaboration_update', data: { kind: 'update', update: b64(mine) } });
    }
    await this.socket.sync();
    return parts;
  }
  /** Applies the next update the server passes on. */
  async receive(): Promise<void> {
    const m = await this.socket.next('collaboration_update');
    const data = m.data as { kind: string; update: string };
    if (data.kind === 'update') Y.applyUpdate(this.doc, unb64(data.update), 'remote');
  }
}
