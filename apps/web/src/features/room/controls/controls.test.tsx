import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ControlBar } from '../components/ControlBar';
import { RoomDialogs } from '../components/RoomDialogs';
import { SidePanel } from '../components/SidePanel';
import { RoomProvider } from '../room-context';
import { participant } from '../testing/fakes';
import { enterTestRoom } from '../testing/room-harness';

/** The control bar on a real RoomController and session, the server played through a fake socket. */

type Room = Awaited<ReturnType<typeof enterTestRoom>>;

function renderBar(
  room: Room,
  { isPro = false, withPanel = false }: { isPro?: boolean; withPanel?: boolean } = {},
) {
  const wrap = (children: ReactNode) => (
    <MemoryRouter>
      <RoomProvider controller={room.controller} session={room.session} isPro={isPro}>
        {children}
      </RoomProvider>
    </MemoryRouter>
  );
  return render(
    wrap(
      <>
        <ControlBar />
        {withPanel ? <SidePanel /> : null}
        <RoomDialogs />
      </>,
    ),
  );
}

const button = (name: string) => screen.getByRole('button', { name });

describe('ControlBar', () => {
  let room: Room | null = null;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    sessionStorage.clear();
    localStorage.clear();
  });
  afterEach(() => {
    room?.controller.stop();
    room = null;
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("shows the host Unmute All when the room's Mute All is on (after a reload) and follows the server", async () => {
    room = await enterTestRoom(participant('p1', 'Hana', { isHost: true }), { allMuted: true });
    renderBar(room);
    expect(screen.getByText('Host')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Unmute All' }));
    const req = room.socket().sentOf('mute_all').at(-1)!;
    expect(req).toMatchObject({ muted: false });
    // Waiting for the server: the button neither flips nor takes a second click.
    expect(screen.getByRole('button', { name: 'Unmute All' })).toBeDisabled();
    await act(async () => {
      room!.socket().receive({ type: 'ack', requestId: req.requestId as string });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Mute All' })).toBeEnabled();
  });

  it('Remove asks in the app first: Cancel sends nothing, Remove sends remove_participant', async () => {
    room = await enterTestRoom(participant('p1', 'Hana', { isHost: true }), {
      others: [participant('p2', 'Gus')],
    });
    renderBar(room, { withPanel: true });
    fireEvent.click(screen.getAllByRole('button', { name: /People/ })[0]!);
    const confirmSpy = vi.spyOn(window, 'confirm');
    fireEvent.click(button('Remove Gus'));
    const dialog = screen.getByRole('dialog', { name: 'Remove Gus from the meeting?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(room.socket().sentOf('remove_participant')).toEqual([]);
    fireEvent.click(button('Remove Gus'));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Remove Gus from the meeting?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(room.socket().sentOf('remove_participant').at(-1)).toMatchObject({ targetParticipantId: 'p2' });
    expect(confirmSpy).not.toHaveBeenCalled();
  });

  it('lists removed people to the host in People, each with Allow back sending allow_rejoin', async () => {
    room = await enterTestRoom(participant('p1', 'Hana', { isHost: true }));
    renderBar(room, { withPanel: true });
    fireEvent.click(screen.getAllByRole('button', { name: /People/ })[0]!);
    expect(screen.queryByRole('region', { name: 'Removed' })).not.toBeInTheDocument();
    act(() => room!.socket().receive({ type: 'removed_list', removed: [{ id: 'r1', name: 'Rita' }] }));
    expect(screen.getByRole('region', { name: 'Removed' })).toHaveTextContent('Rita');
    fireEvent.click(button('Allow Rita back'));
    const req = room.socket().sentOf('allow_rejoin').at(-1)!;
    expect(req).toMatchObject({ removedId: 'r1' });
    await act(async () => {
      room!.socket().receive({ type: 'ack', requestId: req.requestId as string });
      room!.socket().receive({ type: 'removed_list', removed: [] });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByRole('region', { name: 'Removed' })).not.toBeInTheDocument();
  });

  it('shows a guest no removed list even if one arrives', async () => {
    room = await enterTestRoom(participant('p2', 'Gus'));
    renderBar(room, { withPanel: true });
    fireEvent.click(screen.getAllByRole('button', { name: /People/ })[0]!);
    act(() => room!.socket().receive({ type: 'removed_list', removed: [{ id: 'r1', name: 'Rita' }] }));
    expect(screen.queryByRole('region', { name: 'Removed' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow Rita back' })).not.toBeInTheDocument();
  });

  it('gives a guest no host controls; the microphone and camera buttons switch the tracks', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'));
    renderBar(room);
    expect(screen.queryByRole('button', { name: /Mute All/ })).toBeNull();
    expect(screen.queryByText('Host')).toBeNull();
    // A guest's ?name= link joins with the microphone muted (spec defaults).
    fireEvent.click(button('Unmute'));
    // The labels say the state: they do not also report pressed.
    expect(button('Mute')).not.toHaveAttribute('aria-pressed');
    expect(room.tracks.find((t) => t.kind === 'audio')?.enabled).toBe(true);
    fireEvent.click(button('Turn off camera'));
    expect(button('Turn on camera')).not.toHaveAttribute('aria-pressed');
    expect(room.tracks.find((t) => t.kind === 'video')?.enabled).toBe(false);
  });

  it('counts unread chat until the chat is opened', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'));
    renderBar(room);
    act(() =>
      room!.socket().receive({
        type: 'chat_message',
        id: 'm1',
        content: 'hello',
        senderName: 'Ann',
        senderId: 'p2',
        timestamp: new Date().toISOString(),
      }),
    );
    expect(screen.getByLabelText('1 unread')).toBeInTheDocument();
    fireEvent.click(button('Chat'));
    expect(button('Chat')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByLabelText('1 unread')).toBeNull();
  });

  it('Start AI opens the upgrade dialog without Pro; with Pro it starts the meeting transcription', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'));
    const { unmount } = renderBar(room);
    fireEvent.click(screen.getByRole('button', { name: 'Start AI' }));
    const upgrade = screen.getByRole('dialog', { name: 'Upgrade to Pro for AI Features' });
    expect(upgrade).toHaveTextContent('Live transcription');
    expect(upgrade).not.toHaveTextContent('Coming soon');
    expect(room.socket().sentOf('set_transcription')).toEqual([]);
    unmount();
    renderBar(room, { isPro: true });
    fireEvent.click(screen.getByRole('button', { name: 'Start AI' }));
    expect(button('AI Tools')).toHaveAttribute('aria-pressed', 'true');
    const [sent] = room.socket().sentOf('set_transcription');
    expect(sent).toMatchObject({ on: true });
    // The button follows the room's state from the server, not the click.
    expect(screen.queryByRole('button', { name: 'Stop AI' })).toBeNull();
    await act(async () => {
      room!.socket().receive({ type: 'ack', requestId: sent!.requestId as string });
      room!.socket().receive({
        type: 'transcription_state',
        transcription: {
          active: true,
          startedBy: { id: 'p1', name: 'Gus' },
          startedAt: new Date().toISOString(),
        },
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    // Its label says the state: it does not also report pressed.
    expect(screen.getByRole('button', { name: 'Stop AI' })).not.toHaveAttribute('aria-pressed');
  });

  it('while someone else’s transcription is on, a guest’s AI button is their own answer, not Stop', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'), {
      transcription: {
        active: true,
        startedBy: { id: 'h1', name: 'Hana' },
        startedAt: new Date().toISOString(),
      },
    });
    renderBar(room, { isPro: true });
    expect(screen.queryByRole('button', { name: 'Stop AI' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Stop transcribing me' }));
    expect(room.socket().sentOf('set_transcription')).toEqual([]);
    const [sent] = room.socket().sentOf('set_transcription_consent');
    expect(sent).toMatchObject({ consent: 'declined' });
    await act(async () => {
      room!.socket().receive({
        type: 'participant_updated',
        participant: participant('p1', 'Gus', { transcriptionConsent: 'declined' }),
      });
      room!.socket().receive({ type: 'ack', requestId: sent!.requestId as string });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Allow transcription' })).toBeEnabled();
  });

  it('the server refusing transcription for want of Pro opens the upgrade dialog', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'));
    renderBar(room, { isPro: true }); // a stale view of Pro: the server decides
    fireEvent.click(screen.getByRole('button', { name: 'Start AI' }));
    const [sent] = room.socket().sentOf('set_transcription');
    await act(async () => {
      room!.socket().receive({
        type: 'error',
        code: 'subscription_required',
        message: 'An active Pro subscription is required',
        requestId: sent!.requestId as string,
      });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('dialog', { name: 'Upgrade to Pro for AI Features' })).toBeInTheDocument();
  });

  it('Leave meeting ends the room as left', async () => {
    room = await enterTestRoom(participant('p1', 'Gus'));
    renderBar(room);
    fireEvent.click(button('Leave meeting'));
    // A guest is not asked: there is nothing to end for anyone else.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(room.controller.getSnapshot()).toMatchObject({ phase: 'ended', reason: 'left' });
    expect(room.tracks.every((t) => t.readyState === 'ended')).toBe(true);
  });

  it("the host's Leave asks: Cancel stays, End meeting for everyone sends end_meeting", async () => {
    room = await enterTestRoom(participant('p1', 'Hana', { isHost: true }), {
      others: [participant('p2', 'Gus')],
    });
    renderBar(room);
    fireEvent.click(button('Leave meeting'));
    const dialog = screen.getByRole('dialog', { name: 'Leave the meeting?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(room.controller.getSnapshot().phase).toBe('in-room');

    fireEvent.click(button('Leave meeting'));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Leave the meeting?' })).getByRole('button', {
        name: 'End meeting for everyone',
      }),
    );
    const [sent] = room.socket().sentOf('end_meeting');
    expect(sent).toBeDefined();
    // The server answers, then closes every socket with 4005: this one ends as 'ended'.
    await act(async () => {
      room!.socket().receive({ type: 'ack', requestId: sent!.requestId as string });
      room!.socket().drop(4005, 'This meeting has ended');
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(room.controller.getSnapshot()).toMatchObject({ phase: 'ended', reason: 'ended' });
  });

  it("the host's Leave meeting in the dialog leaves without ending the meeting", async () => {
    room = await enterTestRoom(participant('p1', 'Hana', { isHost: true }));
    renderBar(room);
    fireEvent.click(button('Leave meeting'));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Leave the meeting?' })).getByRole('button', {
        name: 'Leave meeting',
      }),
    );
    expect(room.controller.getSnapshot()).toMatchObject({ phase: 'ended', reason: 'left' });
    expect(room.socket().sentOf('end_meeting')).toEqual([]);
  });
});
