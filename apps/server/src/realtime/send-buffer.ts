import type { ServerMessageType } from '@parley/protocol';

/**
 * Server messages a socket whose send buffer is over the soft cap (WS_LIMITS.sendBufferSoftBytes)
 * does not get: the large, frequent, best-effort stream whose loss does not break the meeting.
 *
 * Everything else is never dropped: the roster (`joined`, `participant_*`, `waiting_room`), the
 * admission and host messages (`waiting`, `admitted`, `denied`, `removed`, `mute_*`), media
 * signaling (`offer`, `answer`, `ice-candidate`: a lost one leaves a peer connection half made),
 * replies (`existing_connections`, `ack`, `pong`, `error`), chat (persisted; a reader that cannot
 * keep up is closed and gets the last 200 messages in its next `joined`) and transcripts. A socket
 * that stays over the soft cap, or has more than the hard cap unsent when a message is due, is
 * closed with 4013 (slowConsumer) and resumes with a fresh `joined`.
 */
export const DROPPABLE: ReadonlySet<ServerMessageType> = new Set<ServerMessageType>([
  'collaboration_update',
  // Interim caption words: the final line replaces them anyway.
  'transcript_partial',
]);

export interface SendBufferSettings {
  /** Over this many unsent bytes droppable messages are dropped (and the grace clock runs). */
  sendBufferSoftBytes: number;
  /** Over this many unsent bytes the socket is closed with 4013 at once. */
  sendBufferHardBytes: number;
  /** Continuously over the soft cap this long → closed with 4013. */
  slowConsumerGraceMs: number;
  /**
   * The 4013 close frame waits behind the unread data; a client that still does not read is cut
   * off (TCP) this long after, so its buffer is freed.
   */
  slowConsumerCloseWaitMs: number;
}
