import dgram from 'node:dgram';

export interface SilentStun {
  /** `stun:127.0.0.1:<port>`, for STUN_URLS. */
  url: string;
  /** STUN requests (datagrams) it has swallowed so far: proof the browsers asked it. */
  received(): number;
  stop(): Promise<void>;
}

/**
 * A STUN server that is there and never answers: a UDP socket on loopback that reads every
 * datagram and replies to none, like a public STUN server behind a firewall that drops its
 * answers. Browsers given it keep retrying their binding requests and never get a server-reflexive
 * candidate, and their gathering does not complete for tens of seconds (docs/media.md).
 */
export async function startSilentStun(): Promise<SilentStun> {
  const socket = dgram.createSocket('udp4');
  let count = 0;
  socket.on('message', () => {
    count += 1;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();
  return {
    url: `stun:127.0.0.1:${port}`,
    received: () => count,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
