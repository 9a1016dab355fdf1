/** How long a connected guest may wait in the waiting room before its knock expires. */
export const KNOCK_TIMEOUT_MS = 10 * 60_000;

/**
 * The room's clocks for participants (this server instance's timers): one without a socket that
 * never connected is removed after the join timeout, one whose socket dropped after the resume
 * grace; a connected guest in the waiting room is sent away when its knock expires.
 * `expire` and `expireKnock` are the RoomService's, which check again that the participant is
 * still away (or still waiting).
 */
export function createPresence(
  timings: { resumeGraceMs: number; closedGraceMs: number; joinTimeoutMs: number },
  expire: (roomId: string, participantId: string) => Promise<void>,
  expireKnock: (roomId: string, participantId: string) => Promise<void>,
) {
  const timers = new Map<string, NodeJS.Timeout>();
  let closing = false;

  const forget = (participantId: string): void => {
    clearTimeout(timers.get(participantId));
    timers.delete(participantId);
  };

  function start(
    roomId: string,
    participantId: string,
    ms: number,
    fire: (roomId: string, participantId: string) => Promise<void>,
  ): void {
    if (closing) return;
    forget(participantId);
    const timer = setTimeout(
      () => {
        timers.delete(participantId);
        void fire(roomId, participantId);
      },
      Math.max(0, ms),
    );
    timer.unref();
    timers.set(participantId, timer);
  }

  return {
    /** True once the server is shutting down: sockets closing then are not news. */
    get closing() {
      return closing;
    },

    /**
     * Starts (or restarts) the participant's clock: the join timeout for one that never connected,
     * the closed grace for one whose page closed its socket, else the resume grace.
     */
    await(roomId: string, participantId: string, everConnected: boolean, closed = false): void {
      const ms = !everConnected
        ? timings.joinTimeoutMs
        : closed
          ? timings.closedGraceMs
          : timings.resumeGraceMs;
      start(roomId, participantId, ms, expire);
    },

    /** A connected guest waits to be let in: its knock expires in `ms`. */
    knocking(roomId: string, participantId: string, ms: number): void {
      start(roomId, participantId, ms, expireKnock);
    },

    /** A socket speaks for the participant again. */
    arrived: forget,
    /** The participant is gone for good. */
    forget,

    close(): void {
      closing = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
