import type { ServerMessage, ServerMessageOf } from '@parley/protocol/ws';
import { describe, expect, it } from 'vitest';
import type { RoomTransport } from '../rooms/transport.js';
import { observeRoomForMedia } from './observer.js';
import type { MediaService } from './service.js';

/** The room's transport and the media service as the observer sees them, recording what happens. */
function setUp(mode: 'p2p' | 'sfu') {
  const sent: { to: string; type: ServerMessage['type'] }[] = [];
  const resumed: string[] = [];
  const transport: RoomTransport = {
    publish: (_roomId, to, message) =>
      sent.push({ to: to.kind === 'one' ? to.participantId : to.kind, type: message.type }),
    close: () => undefined,
  } as RoomTransport;
  const media = {
    hasSfu: true,
    entering: () => ({ mode, changed: false }),
    activeSpeaker: () => null,
    left: () => undefined,
    resumed: (_roomId: string, participantId: string) => resumed.push(participantId),
  } as unknown as MediaService;
  return { observed: observeRoomForMedia(transport, media), sent, resumed };
}

const joined = (resumed: boolean) =>
  ({ type: 'joined', participants: [], resumed }) as unknown as ServerMessageOf<'joined'>;

describe('the media observer', () => {
  it('sends a resumed page its unanswered SFU offer again, after its joined', () => {
    const { observed, sent, resumed } = setUp('sfu');
    observed.publish('r', { kind: 'one', participantId: 'p1' }, joined(true));
    expect(sent.map((m) => m.type)).toEqual(['media_mode', 'joined']);
    expect(resumed).toEqual(['p1']);
  });

  it('does nothing of the kind for a first join or a room on the mesh', () => {
    const sfu = setUp('sfu');
    sfu.observed.publish('r', { kind: 'one', participantId: 'p1' }, joined(false));
    expect(sfu.resumed).toEqual([]);
    const mesh = setUp('p2p');
    mesh.observed.publish('r', { kind: 'one', participantId: 'p1' }, joined(true));
    expect(mesh.resumed).toEqual([]);
  });
});
