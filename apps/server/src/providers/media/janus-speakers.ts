/**
 * Janus's talking detection (VideoRoom `audiolevel_event`): a publisher talks when the average
 * audio level (RFC 6464, -dBov: 0 loudest, 127 silence) of its last TALKING_PACKETS packets (20 ms
 * each: half a second) is under TALKING_LEVEL, and stops when it is over again. Janus's defaults
 * (25 over 100 packets) let speech with pauses through only now and then: measured in
 * e2e/tests/sfu.spec.ts, see docs/media.md, "Scale".
 */
export const TALKING_LEVEL = 60;
export const TALKING_PACKETS = 25;
/** janode's event for VideoRoom's `talking` / `stopped-talking`. */
export const TALKING = 'videoroom_talking';

/** What a talking event changed. */
export interface Heard {
  /** The publisher started talking now (in a large room, last-N audio follows it). */
  started: boolean;
  /** It is the active speaker now, and was not before. */
  speakerChanged: boolean;
}

const NOTHING: Heard = { started: false, speakerChanged: false };

/**
 * Who talks in one Janus room, from its talking events: the active speaker (the last publisher
 * heard starting to talk) and when each publisher last started, which last-N audio ranks by.
 */
export class RoomSpeakers {
  /** Publishers Janus hears talking now. */
  readonly talking = new Set<string>();
  /** When each publisher last started talking (a counter: larger is later). */
  readonly spoke = new Map<string, number>();
  /** The active speaker: the last publisher heard starting to talk (null: none yet, or left). */
  speaker: string | null = null;
  private clock = 0;

  /** Janus heard a publisher start or stop talking. */
  heard(feed: string, talking: boolean): Heard {
    if (!talking) {
      this.talking.delete(feed);
      return NOTHING;
    }
    if (this.talking.has(feed)) return NOTHING;
    this.talking.add(feed);
    this.spoke.set(feed, ++this.clock);
    if (this.speaker === feed) return { started: true, speakerChanged: false };
    this.speaker = feed;
    return { started: true, speakerChanged: true };
  }

  /** The publisher left the room. Answers whether the active speaker changed (it was them). */
  left(feed: string): boolean {
    this.talking.delete(feed);
    this.spoke.delete(feed);
    if (this.speaker !== feed) return false;
    // The one who spoke before them, if still here.
    this.speaker = [...this.spoke].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    return true;
  }
}
