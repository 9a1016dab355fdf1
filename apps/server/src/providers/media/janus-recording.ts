import { mkdirSync } from 'node:fs';
import { timed } from './janus-client.js';
import type { Room } from './janus-room.js';
import type { SupervisorLog } from './janus-supervisor.js';

/** A room's recording: its file name, and how many publisher connections were recorded so far. */
export interface Recording {
  name: string;
  files: number;
}

/**
 * Rooms being recorded: the recording's file name, and how many publisher connections were
 * recorded so far (each gets its own files). Kept apart from the Janus rooms, so that a Janus
 * restart (which clears them) does not end a recording: its publishers are recorded again as they
 * publish again.
 */
export class JanusRecordings {
  private readonly recordings = new Map<string, Recording>();

  constructor(
    /** Janus's rec_dir as this server sees it; null: no recording. */
    readonly dir: string | null,
    private readonly rooms: ReadonlyMap<string, Room>,
    private readonly log: SupervisorLog,
  ) {}

  /** The room's recording, if it is being recorded. */
  of(roomId: string): Recording | undefined {
    return this.recordings.get(roomId);
  }

  async start(roomId: string, name: string): Promise<void> {
    if (!this.dir) throw new Error('This Janus has no recordings folder');
    if (!/^[A-Za-z0-9-]+$/.test(name)) throw new Error('Bad recording name');
    // Janus creates rec_dir only when it creates a room; a room made before the folder was
    // removed (retention) would fail to open its files.
    mkdirSync(this.dir, { recursive: true });
    const rec = { name, files: 0 };
    this.recordings.set(roomId, rec);
    const room = this.rooms.get(roomId);
    if (!room) return;
    await room.ready;
    for (const m of room.members.values()) {
      if (!m.publisher) continue;
      await timed(m.publisher.configure({ record: true, filename: nextFile(rec, m.id) }), 'start recording');
    }
  }

  async stop(roomId: string): Promise<void> {
    if (!this.recordings.delete(roomId)) return;
    const room = this.rooms.get(roomId);
    if (!room) return;
    for (const m of room.members.values()) {
      if (!m.publisher) continue;
      await timed(m.publisher.configure({ record: false }), 'stop recording').catch((err: unknown) =>
        this.log.warn({ err, roomId }, 'could not stop recording a publisher'),
      );
    }
  }

  /** The room is over: so is its recording (its publishers' files close with their handles). */
  ended(roomId: string): void {
    this.recordings.delete(roomId);
  }
}

/**
 * The next file name of a recording: `<name>-<n>-p<participant>` (Janus adds `-audio-0.mjr`,
 * `-video-1.mjr`). The participant lets post-processing keep one grid cell per person when they
 * publish more than once (a reload).
 */
export function nextFile(rec: Recording, participantId: string): string {
  rec.files += 1;
  return `${rec.name}-${String(rec.files).padStart(3, '0')}-p${participantId.replace(/[^A-Za-z0-9-]/g, '')}`;
}
