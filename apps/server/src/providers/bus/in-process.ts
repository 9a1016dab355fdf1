import type { BusEnvelope, RoomBus } from './types.js';

/** The default: this process's hub is the only consumer. */
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
