import type { RoomParticipant, ServerMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../providers/bus/index.js';
import { createSockets } from './sockets.js';
import type { Conn } from './types.js';

function fakeConn(id: string): Conn & { got: string[] } {
  const got: string[] = [];
  const conn: Conn & { got: string[] } = {
    id,
    meetingId: '111-222-333',
    userId: null,
    idHash: null,
    isOpen: true,
    roomId: null,
    participantId: null,
    inRoom: false,
    isHost: false,
    held: null,
    got,
    hearRoom: () => undefined,
    bind: () => undefined,
    send: (m) => got.push(m.type === 'chat_message' ? `chat:${m.content}` : m.type),
    sendText: (text) => {
      const m = JSON.parse(text) as ServerMessage;
      got.push(
        m.type === 'participant_joined'
          ? `joined:${m.participant.id}`
          : m.type === 'chat_message'
            ? `chat:${m.content}`
            : m.type,
      );
    },
    close: () => undefined,
  };
  return conn;
}

const participant = (id: string) => ({ id, name: id }) as unknown as RoomParticipant;
const joined = (id: string) =>
  ({ type: 'joined', self: { id, isHost: false }, participants: [] }) as unknown as ServerMessage;

describe('a socket entering a room', () => {
  it('gets what the room said while its joined was built right after that joined, and its own news not', () => {
    const sockets = createSockets(createInProcessBus(), 'inst');
    const { transport } = sockets;
    const yan = fakeConn('inst:1');
    sockets.hold(yan, 'room', 'yan');
    // Xia enters at the same moment (after Yan's roster was read), before Yan is even bound.
    transport.publish(
      'room',
      { kind: 'all', except: 'xia' },
      { type: 'participant_joined', participant: participant('xia') },
    );
    sockets.bind(yan, 'room', 'yan');
    transport.publish(
      'room',
      { kind: 'all', except: 'yan' },
      { type: 'participant_joined', participant: participant('yan') },
    );
    transport.publish(
      'room',
      { kind: 'all' },
      { type: 'chat_message', id: 'c1', content: 'hi', senderId: 'xia', senderName: 'Xia', timestamp: '' },
    );
    expect(yan.got).toEqual([]);

    transport.publish('room', { kind: 'one', participantId: 'yan' }, joined('yan'));
    expect(yan.got).toEqual(['joined', 'joined:xia', 'chat:hi']);
    expect(yan.held).toBeNull();
    transport.publish(
      'room',
      { kind: 'all' },
      { type: 'chat_message', id: 'c2', content: 'next', senderId: 'xia', senderName: 'Xia', timestamp: '' },
    );
    expect(yan.got.at(-1)).toBe('chat:next');
  });

  it('drops what it held when it is sent to the waiting room, or leaves', () => {
    const sockets = createSockets(createInProcessBus(), 'inst');
    const { transport } = sockets;
    const wen = fakeConn('inst:2');
    sockets.hold(wen, 'room', 'wen');
    sockets.bind(wen, 'room', 'wen');
    transport.publish(
      'room',
      { kind: 'all' },
      { type: 'chat_message', id: 'c1', content: 'before', senderId: 'x', senderName: 'X', timestamp: '' },
    );
    transport.publish('room', { kind: 'one', participantId: 'wen' }, { type: 'waiting', message: 'wait' });
    expect(wen.held).toBeNull();
    transport.publish('room', { kind: 'one', participantId: 'wen' }, joined('wen'));
    expect(wen.got).toEqual(['waiting', 'joined']);

    const lea = fakeConn('inst:3');
    sockets.hold(lea, 'room', 'lea');
    sockets.bind(lea, 'room', 'lea');
    sockets.unbind(lea);
    expect(lea.held).toBeNull();
  });
});
