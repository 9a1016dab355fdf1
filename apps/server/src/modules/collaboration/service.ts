import { randomUUID } from 'node:crypto';
import {
  COLLABORATION_BOUNDS,
  COLLABORATION_DOC,
  collaborationPayloadSchema,
  type CollaborationSync,
  type MeetingNotes,
  type ServerMessage,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import type { BusEnvelope } from '../../providers/bus/index.js';
import type { MemberState, RoomState } from '../rooms/state.js';
import type { Audience } from '../rooms/transport.js';
import { DEFAULT_DOCUMENT_LIMITS, MeetingDocument, type Refusal } from './document.js';
import type { CollaborationRepository } from './repository.js';
import { notesOf } from './notes.js';

export interface CollaborationSettings {
  /** A changed document is saved at most this long after its first unsaved change. */
  saveAfterMs: number;
  /** How often documents of rooms that are gone are saved and unloaded. */
  sweepEveryMs: number;
  /** The persisted size cap (COLLABORATION_BOUNDS.maxDocumentBytes; tests lower it). */
  maxDocumentBytes: number;
  messagesPerSecond: number;
  messageBurst: number;
  bytesPerSecond: number;
  byteBurst: number;
  /** Structs one update may add, and one document hold (document.ts: items cost more than bytes). */
  maxItemsPerUpdate: number;
  maxDocumentItems: number;
  /** Structs all the documents open on this instance may hold together. */
  maxInstanceItems: number;
  /** Per participant: sync requests (each encodes the document) a second, with a burst. */
  syncsPerSecond: number;
  syncBurst: number;
}

export const DEFAULT_COLLABORATION_SETTINGS: CollaborationSettings = {
  saveAfterMs: 2000,
  sweepEveryMs: 30_000,
  maxDocumentBytes: COLLABORATION_BOUNDS.maxDocumentBytes,
  messagesPerSecond: COLLABORATION_BOUNDS.messagesPerSecond,
  messageBurst: COLLABORATION_BOUNDS.messageBurst,
  bytesPerSecond: COLLABORATION_BOUNDS.bytesPerSecond,
  byteBurst: COLLABORATION_BOUNDS.byteBurst,
  maxItemsPerUpdate: DEFAULT_DOCUMENT_LIMITS.maxItemsPerUpdate,
  maxDocumentItems: DEFAULT_DOCUMENT_LIMITS.maxDocumentItems,
  // About 1.2 GB of heap at the smallest items' cost: 20 full documents, or hundreds of real ones.
  maxInstanceItems: 2_000_000,
  // A page asks once when it opens the board and once after each reconnect.
  syncsPerSecond: 0.2,
  syncBurst: 5,
};

export interface CollaborationDeps {
  repo: CollaborationRepository;
  publish(roomId: string, to: Audience, message: ServerMessage): void;
  /** Whether the room of a meeting is still open (its document stays in memory while it is). */
  roomOpen(roomId: string): Promise<boolean>;
  log: FastifyBaseLogger;
  settings?: Partial<CollaborationSettings>;
  /**
   * Several instances (REDIS_URL): each keeps its own copy of an open document. Updates another
   * instance took reach this one through `heard` (the room's own `collaboration_update`); a
   * document opened here asks the others for theirs (`tell`) and waits at most `stateWaitMs`
   * for the first answer, so its first sync misses nothing another instance has not saved yet.
   */
  cluster?: {
    instance: string;
    tell(roomId: string, note: NonNullable<BusEnvelope['collaboration']>): void;
    stateWaitMs?: number;
  };
}

/** How long a document opened on one of several instances waits for another's state. */
const STATE_WAIT_MS = 250;

interface Bucket {
  messages: number;
  bytes: number;
  at: number;
}

interface SyncBucket {
  tokens: number;
  at: number;
}

interface Open {
  doc: MeetingDocument;
  saveTimer: NodeJS.Timeout | null;
  buckets: Map<string, Bucket>;
  syncs: Map<string, SyncBucket>;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/**
 * The meetings' collaboration documents (whiteboard and notes, one Yjs document per meeting).
 * The server is the keeper: it loads a meeting's snapshot when its room first speaks, validates
 * and applies every update (size, per-participant rate, a trial on a mirror document), passes it
 * on, answers sync requests (late joiners and reconnecting participants get the current state),
 * saves a compacted snapshot a moment after changes, and unloads documents whose room is gone.
 */
export function createCollaborationService(deps: CollaborationDeps) {
  const settings = { ...DEFAULT_COLLABORATION_SETTINGS, ...deps.settings };
  const open = new Map<string, Promise<Open>>();
  /** Documents loaded here, still waiting for another instance's state (cluster only). */
  const gathering = new Map<string, { o: Open; done(): void }>();
  const { log, cluster } = deps;

  /** Asks the other instances for the document and waits for the first answer, or not long. */
  function gather(roomId: string, o: Open): Promise<Open> {
    if (!cluster) return Promise.resolve(o);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        gathering.delete(roomId);
        resolve(o);
      };
      const timer = setTimeout(done, cluster.stateWaitMs ?? STATE_WAIT_MS);
      gathering.set(roomId, { o, done });
      cluster.tell(roomId, { request: true });
    });
  }

  /** Runs `use` on the room's document here, if it is open (or opening) on this instance. */
  function withOpen(roomId: string, use: (o: Open) => void): void {
    const waiting = gathering.get(roomId);
    if (waiting) use(waiting.o);
    else
      void open
        .get(roomId)
        ?.then(use)
        .catch(() => undefined);
  }

  function load(roomId: string): Promise<Open> {
    let entry = open.get(roomId);
    if (!entry) {
      entry = deps.repo.load(roomId).then((row) =>
        gather(roomId, {
          doc: new MeetingDocument(row?.state ?? null, settings),
          saveTimer: null,
          buckets: new Map(),
          syncs: new Map(),
        }),
      );
      open.set(roomId, entry);
      entry.catch(() => open.delete(roomId));
    }
    return entry;
  }

  async function save(roomId: string, o: Open): Promise<void> {
    if (o.saveTimer) clearTimeout(o.saveTimer);
    o.saveTimer = null;
    if (!o.doc.dirty) return;
    o.doc.dirty = false;
    try {
      let state = o.doc.snapshot();
      // Several instances each save their own copy: merged with what is stored, a save never
      // drops what another instance saved and this one has not heard yet.
      const stored = cluster ? await deps.repo.load(roomId) : null;
      if (stored) state = Y.mergeUpdates([stored.state, state]);
      await deps.repo.save(roomId, state);
    } catch (err) {
      o.doc.dirty = true;
      log.warn({ err, roomId }, 'could not save the collaboration document');
    }
  }

  function scheduleSave(roomId: string, o: Open): void {
    if (o.saveTimer) return;
    o.saveTimer = setTimeout(() => void save(roomId, o), settings.saveAfterMs);
    o.saveTimer.unref();
  }

  /** Token buckets per participant: messages a second and bytes a second, each with a burst. */
  function allow(o: Open, participantId: string, bytes: number): boolean {
    const now = Date.now();
    const b = o.buckets.get(participantId) ?? {
      messages: settings.messageBurst,
      bytes: settings.byteBurst,
      at: now,
    };
    const dt = (now - b.at) / 1000;
    b.messages = Math.min(settings.messageBurst, b.messages + dt * settings.messagesPerSecond);
    b.bytes = Math.min(settings.byteBurst, b.bytes + dt * settings.bytesPerSecond);
    b.at = now;
    o.buckets.set(participantId, b);
    if (b.messages < 1 || b.bytes < bytes) return false;
    b.messages -= 1;
    b.bytes -= bytes;
    return true;
  }

  /** Sync requests have a bucket of their own: each costs an encoding of the whole document. */
  function allowSync(o: Open, participantId: string): boolean {
    const now = Date.now();
    const b = o.syncs.get(participantId) ?? { tokens: settings.syncBurst, at: now };
    b.tokens = Math.min(settings.syncBurst, b.tokens + ((now - b.at) / 1000) * settings.syncsPerSecond);
    b.at = now;
    o.syncs.set(participantId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Items in the documents open on this instance, all together. */
  async function openItems(): Promise<number> {
    let used = 0;
    for (const entry of open.values()) {
      const o = await entry.catch(() => null);
      if (o) used += o.doc.items;
    }
    return used;
  }

  const sweep = setInterval(() => {
    void (async () => {
      for (const [roomId, entry] of open) {
        const o = await entry.catch(() => null);
        if (!o) continue;
        if (o.doc.dirty) await save(roomId, o);
        const idle = Date.now() - o.doc.lastActivity > settings.sweepEveryMs / 2;
        if (idle && !(await deps.roomOpen(roomId).catch(() => true)) && !o.doc.dirty) {
          open.delete(roomId);
          o.doc.destroy();
        }
      }
    })().catch((err: unknown) => log.error({ err }, 'collaboration sweep failed'));
  }, settings.sweepEveryMs);
  sweep.unref();

  return {
    /** The limits in force (tests lower them). */
    settings,

    /**
     * A participant's collaboration_update. Answers null when it was taken, or why it was refused
     * (the document is unchanged then).
     */
    async receive(
      room: RoomState,
      member: MemberState,
      data: unknown,
      reply: (message: CollaborationSync) => void,
    ): Promise<Refusal | null> {
      const parsed = collaborationPayloadSchema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `data.${issue.path.join('.')}: ` : '';
        return {
          code: 'bad_message',
          message: `Invalid collaboration update: ${where}${issue?.message ?? 'bad shape'}`,
        };
      }
      const payload = parsed.data;
      const bytes = payload.kind === 'sync_request' ? payload.stateVector : payload.update;
      const o = await load(room.id);
      if (!allow(o, member.id, (bytes.length * 3) / 4)) {
        return { code: 'rate_limited', message: 'Too many whiteboard or notes changes: slow down' };
      }
      const except = { kind: 'all' as const, except: member.id };
      switch (payload.kind) {
        case 'update': {
          const result = o.doc.apply(
            unb64(payload.update),
            member.id,
            settings.maxInstanceItems - (await openItems()),
          );
          if (!result.ok) return result.refusal;
          if (result.changed) {
            scheduleSave(room.id, o);
            deps.publish(room.id, except, {
              type: 'collaboration_update',
              fromParticipant: member.id,
              data: { kind: 'update', update: payload.update },
            });
          }
          return null;
        }
        case 'awareness': {
          const result = o.doc.applyAwareness(unb64(payload.update), member.id, member.name);
          if (!result.ok) return result.refusal;
          deps.publish(room.id, except, {
            type: 'collaboration_update',
            fromParticipant: member.id,
            data: { kind: 'awareness', update: b64(result.update) },
          });
          return null;
        }
        case 'sync_request': {
          if (!allowSync(o, member.id)) {
            return {
              code: 'rate_limited',
              message: 'Too many requests for the whole board: wait a few seconds',
            };
          }
          const diff = o.doc.diff(unb64(payload.stateVector));
          if (!diff) return { code: 'bad_message', message: 'The state vector could not be read' };
          const awareness = o.doc.awarenessState();
          const size = COLLABORATION_BOUNDS.syncPartBytes;
          const parts = Math.max(1, Math.ceil(diff.update.length / size));
          const syncId = randomUUID();
          for (let part = 0; part < parts; part++) {
            const last = part === parts - 1;
            reply({
              type: 'collaboration_sync',
              syncId,
              part,
              parts,
              update: b64(diff.update.subarray(part * size, (part + 1) * size)),
              stateVector: last ? b64(diff.stateVector) : '',
              awareness: last && awareness ? b64(awareness) : '',
            });
          }
          return null;
        }
      }
    },

    /**
     * An envelope of the room bus (several instances): another instance's accepted update goes
     * into this instance's copy; a request for the document is answered with it; an answer
     * completes a document this instance is opening.
     */
    heard(envelope: BusEnvelope): void {
      if (!cluster || envelope.origin === cluster.instance) return;
      const { roomId, message, collaboration } = envelope;
      if (message?.type === 'collaboration_update') {
        if (!open.has(roomId)) return; // not open here: nothing to keep the same
        const payload = collaborationPayloadSchema.safeParse(message.data);
        if (payload.success && payload.data.kind === 'update') {
          const update = unb64(payload.data.update);
          withOpen(roomId, (o) => o.doc.applyRemote(update));
        }
        return;
      }
      if (!collaboration) return;
      if ('request' in collaboration) {
        // Only a document that is whole answers (one still opening may lack what it asks for).
        if (gathering.has(roomId)) return;
        void open
          .get(roomId)
          ?.then((o) => cluster.tell(roomId, { state: b64(o.doc.snapshot()) }))
          .catch(() => undefined);
        return;
      }
      const state = unb64(collaboration.state);
      const waiting = gathering.get(roomId);
      withOpen(roomId, (o) => o.doc.applyRemote(state));
      waiting?.done();
    },

    /** A participant left the room: its cursors go, and the others are told. */
    async participantLeft(roomId: string, participantId: string): Promise<void> {
      const entry = open.get(roomId);
      if (!entry) return;
      const o = await entry;
      o.buckets.delete(participantId);
      const removal = o.doc.forgetParticipant(participantId);
      if (removal) {
        deps.publish(
          roomId,
          { kind: 'all', except: participantId },
          {
            type: 'collaboration_update',
            fromParticipant: participantId,
            data: { kind: 'awareness', update: b64(removal) },
          },
        );
      }
    },

    /** The meeting's notes (and the document's size), from memory when open, else the database. */
    async notes(meetingId: string): Promise<MeetingNotes> {
      const entry = open.get(meetingId);
      if (entry) {
        const o = await entry;
        return {
          ...notesOf(o.doc.doc.getXmlFragment(COLLABORATION_DOC.notes)),
          updatedAt: new Date().toISOString(),
          bytes: o.doc.snapshot().length,
        };
      }
      const row = await deps.repo.load(meetingId);
      if (!row) return { doc: null, text: '', updatedAt: null, bytes: 0 };
      const doc = new Y.Doc();
      try {
        Y.applyUpdate(doc, row.state);
        return {
          ...notesOf(doc.getXmlFragment(COLLABORATION_DOC.notes)),
          updatedAt: row.updatedAt.toISOString(),
          bytes: row.bytes,
        };
      } finally {
        doc.destroy();
      }
    },

    /** Documents in memory (bench, tests). */
    openCount: () => open.size,

    /** Items (Yjs structs) the documents in memory hold, all together (bench, tests). */
    openItems,

    /** Saves every changed document now (tests, shutdown). */
    async flush(): Promise<void> {
      for (const [roomId, entry] of open) {
        const o = await entry.catch(() => null);
        if (o) await save(roomId, o);
      }
    },

    /**
     * Retention: the meeting's document goes from memory (unsaved, so no later save brings it
     * back) and from the database. Only for a meeting that is not live. Answers the rows deleted.
     */
    async purge(meetingId: string): Promise<number> {
      const entry = open.get(meetingId);
      if (entry) {
        open.delete(meetingId);
        const o = await entry.catch(() => null);
        if (o) {
          if (o.saveTimer) clearTimeout(o.saveTimer);
          o.doc.destroy();
        }
      }
      return deps.repo.remove(meetingId);
    },

    /** Shutdown: save everything, stop the timers, let the documents go. */
    async close(): Promise<void> {
      clearInterval(sweep);
      for (const [roomId, entry] of open) {
        const o = await entry.catch(() => null);
        if (!o) continue;
        await save(roomId, o);
        o.doc.destroy();
      }
      open.clear();
    },
  };
}
export type CollaborationService = ReturnType<typeof createCollaborationService>;
