import type { JoinResponse, RoomParticipant, TranscriptionState } from '@parley/protocol/ws';
import { vi } from 'vitest';
import type { Notice } from '../room-session';
import { RoomController } from '../room-controller';
import { FakeSocket, installFakeDevices, joinedMessage } from './fakes';

/**
 * A RoomController taken into the room with fakes (join call, socket, camera and microphone), for
 * tests of what sits on top of it. Call with fake timers on; `vi.unstubAllGlobals()` afterwards.
 */
export async function enterTestRoom(
  self: RoomParticipant,
  opts: { allMuted?: boolean; others?: RoomParticipant[]; transcription?: TranscriptionState } = {},
) {
  const sockets: FakeSocket[] = [];
  const tracks = installFakeDevices(vi.stubGlobal);
  const notify = vi.fn<(n: Notice) => void>();
  const answer: JoinResponse = {
    id: self.id,
    joinToken: 'token-0123456789abcdef',
    isHost: self.isHost,
    admission: 'admitted',
  };
  const controller = new RoomController({
    meetingId: '123-456-789',
    queryName: self.name,
    wantsHost: self.isHost,
    join: () => Promise.resolve(answer),
    notify,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  });
  controller.start();
  await vi.advanceTimersByTimeAsync(0);
  const socket = () => sockets[sockets.length - 1]!;
  socket().open();
  socket().receive(joinedMessage(self, opts));
  const state = controller.getSnapshot();
  if (state.phase !== 'in-room') throw new Error(`expected in-room, got ${state.phase}`);
  return { controller, session: state.session, media: state.media, socket, tracks, notify };
}
