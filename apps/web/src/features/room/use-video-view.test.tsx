import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { FakePC } from './media/sfu-fakes';
import { RoomProvider } from './room-context';
import type { RoomSession } from './room-session';
import { participant } from './testing/fakes';
import { enterTestRoom } from './testing/room-harness';
import { useVideoView } from './use-video-view';
import type { VideoLayout } from './video-view';

/** useVideoView on a real session, the server played through a fake socket. */

function Probe({ layout }: { layout: VideoLayout | null }) {
  useVideoView(layout);
  return null;
}

describe('useVideoView', () => {
  let room: Awaited<ReturnType<typeof enterTestRoom>>;
  let handed: MockInstance<RoomSession['setVideoView']>;

  async function enter() {
    room = await enterTestRoom(participant('p1', 'Ann'), {
      others: [participant('p2', 'Bo'), participant('p3', 'Cy')],
    });
    handed = vi.spyOn(room.session, 'setVideoView');
    const ui = (layout: VideoLayout | null) => (
      <RoomProvider controller={room.controller} session={room.session} isPro={false}>
        <Probe layout={layout} />
      </RoomProvider>
    );
    const { rerender } = render(ui({ kind: 'grid' }));
    return (layout: VideoLayout | null) => rerender(ui(layout));
  }
  const toSfu = () => act(() => room.socket().receive({ type: 'media_mode', mode: 'sfu' }));
  const grid = (...ids: string[]) => ids.map((participantId) => ({ participantId, quality: 'high' }));

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.stubGlobal('RTCPeerConnection', FakePC);
  });
  afterEach(async () => {
    room.controller.stop();
    // The SFU session's start fails with the closed socket, and says so in the log.
    await vi.advanceTimersByTimeAsync(0);
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('hands nothing over on the mesh; on the SFU the layout’s view, once', async () => {
    await enter();
    expect(handed).not.toHaveBeenCalled();
    toSfu();
    expect(handed.mock.calls).toEqual([[grid('p2', 'p3')]]);
  });

  it('hands the view over again only when it changes, not on each render', async () => {
    const show = await enter();
    toSfu();
    show({ kind: 'grid' });
    act(() =>
      room
        .socket()
        .receive({ type: 'participant_updated', participant: participant('p2', 'Bo', { isMuted: true }) }),
    );
    expect(handed).toHaveBeenCalledTimes(1);
    act(() => room.socket().receive({ type: 'participant_joined', participant: participant('p4', 'Di') }));
    expect(handed).toHaveBeenCalledTimes(2);
    expect(handed).toHaveBeenLastCalledWith(grid('p2', 'p3', 'p4'));
    show({ kind: 'share', sharer: { id: 'p3' } });
    expect(handed).toHaveBeenLastCalledWith([
      { participantId: 'p3', quality: 'high' },
      { participantId: 'p2', quality: 'low' },
      { participantId: 'p4', quality: 'low' },
    ]);
  });

  it('after no layout (another component’s on screen), hands the same view over again', async () => {
    const show = await enter();
    toSfu();
    show(null);
    expect(handed).toHaveBeenCalledTimes(1);
    show({ kind: 'grid' });
    expect(handed).toHaveBeenCalledTimes(2);
    expect(handed).toHaveBeenLastCalledWith(grid('p2', 'p3'));
  });
});
