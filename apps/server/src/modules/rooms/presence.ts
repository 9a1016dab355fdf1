/**
 * The room's clocks for participants without a socket (this server instance's timers): one that
 * never connected is removed after the join timeout, one whose socket dropped after the resume
 * grace. `expire` is the RoomService's, which checks again that the participant is still away.
 */
export function createPresence(
  timings: { resumeGraceMs: number; joinTimeoutMs: number },
  expire: (roomId: string, participantId: string) => Promise<void>,
) {
  const timers = new Map<string, NodeJS.Timeout>();
  let closing = false;

  const forget = (participantId: string): void => {
    clearTimeout(timers.get(participantId));
    timers.delete(participantId);
  };

  return {
    /** True once the server is shutting down: sockets closing then are not news. */
    get closing() {
      return closing;
    },

    /** Starts (or restarts) the participant's clock; `everConnected` picks grace or join timeout. */
    await(roomId: string, participantId: string, everConnected: boolean): void {
      if (closing) return;
      forget(participantId);
      const timer = setTimeout(
        () => {
          timers.delete(participantId);
          void expire(roomId, participantId);
        },
        everConnected ? timings.resumeGraceMs : timings.joinTimeoutMs,
      );
      timer.unref();
      timers.set(participantId, timer);
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
