import type { BusEnvelope, RoomBus } from './types.js';

/** The default: this process's sockets (realtime/sockets.ts) are the only consumer. */
export function createInProcessBus(): RoomBus {
  let handler: ((e: BusEnvelope) => void) | null = null;
  return {
    kind: 'in-process',
    publish(envelope) {
      handler?.(envelope);
    },
    subscribe(h) {
      handler = h;
    },
    async close() {
      handler = null;
    },
  };
}
