import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ControlBar } from '../components/ControlBar';
import { RoomHeader } from '../components/RoomHeader';
import { SidePanel } from '../components/SidePanel';
import { RoomProvider } from '../room-context';
import { participant } from '../testing/fakes';
import { enterTestRoom } from '../testing/room-harness';
import { TranscriptList } from './TranscriptList';
import { TranscriptionNotice } from './TranscriptionConsent';

/** The notice, the badge and the People list on a real session, the server played by a fake socket. */
type Room = Awaited<ReturnType<typeof enterTestRoom>>;

const ON = { active: true, startedBy: { id: 'h1', name: 'Hana' }, startedAt: '2026-11-23T10:00:00.000Z' };
const OFF = { active: false, startedBy: null, startedAt: null };

function renderRoom(room: Room) {
  return render(
    <MemoryRouter>
      <RoomProvider controller={room.controller} session={room.session} isPro={false}>
        <RoomHeader />
        <TranscriptionNotice />
        <SidePanel />
        <ControlBar />
      </RoomProvider>
    </MemoryRouter>,
  );
}

/** The server takes the page's last answer: everyone hears participant_updated, then the ack. */
async function serverAccepts(room: Room, self: ReturnType<typeof participant>) {
  const sent = room.socket().sentOf('set_transcription_consent').at(-1)!;
  await act(async () => {
    room.socket().receive({
      type: 'participant_updated',
      participant: { ...self, transcriptionConsent: sent.consent as 'allowed' | 'declined' },
    });
    room.socket().receive({ type: 'ack', requestId: sent.requestId as string });
    await vi.advanceTimersByTimeAsync(0);
  });
  return sent.consent;
}

describe('consent to transcription in the room', () => {
  let room: Room | null = null;
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
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

  it('a late joiner is told who turned it on and what is kept, and continues from the keyboard', async () => {
    const gus = participant('g1', 'Gus');
    room = await enterTestRoom(gus, { transcription: ON });
    renderRoom(room);
    const notice = screen.getByRole('region', { name: 'This meeting is being transcribed' });
    expect(within(notice).getByRole('alert')).toHaveTextContent('This meeting is being transcribed');
    expect(notice).toHaveTextContent('Hana turned on live transcription');
    expect(notice).toHaveTextContent('30 days');
    // The badge is there from the start, for everyone.
    expect(screen.getByTestId('transcription-badge')).toHaveTextContent('Transcribing');
    expect(room.socket().sentOf('set_transcription_consent')).toEqual([]);

    within(notice).getByRole('button', { name: 'Continue' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(await serverAccepts(room, gus)).toBe('allowed');
    expect(screen.queryByTestId('transcription-notice')).toBeNull();
    expect(screen.getByTestId('transcription-badge')).toHaveTextContent('Transcribing');
  });

  it('declining hides the notice, marks the badge, and the badge lets the participant allow again', async () => {
    const gus = participant('g1', 'Gus');
    room = await enterTestRoom(gus, { transcription: ON });
    renderRoom(room);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    // At once, before the server's answer: not transcribed any more, and it shows.
    expect(screen.queryByTestId('transcription-notice')).toBeNull();
    expect(screen.getByTestId('transcription-badge')).toHaveAccessibleName(
      'Transcribing (not you): details and your choice',
    );
    expect(await serverAccepts(room, gus)).toBe('declined');

    await userEvent.click(screen.getByTestId('transcription-badge'));
    const popover = await screen.findByRole('dialog', { name: 'Live transcription' });
    expect(within(popover).getByTestId('transcription-consent-status')).toHaveTextContent(
      'Your audio is not sent for transcription. You still see the captions of others.',
    );
    await userEvent.click(within(popover).getByRole('button', { name: 'Allow transcription' }));
    expect(await serverAccepts(room, gus)).toBe('allowed');
    expect(within(popover).getByRole('button', { name: 'Stop transcribing me' })).toBeInTheDocument();
  });

  it('the host sees in People who declined and who has not answered; it all goes when transcription stops', async () => {
    const hana = participant('h1', 'Hana', { isHost: true, transcriptionConsent: 'allowed' });
    const others = [participant('g1', 'Gus', { transcriptionConsent: 'declined' }), participant('a1', 'Ann')];
    room = await enterTestRoom(hana, { transcription: ON, others });
    renderRoom(room);
    // The starter answered by starting: no notice for the host.
    expect(screen.queryByTestId('transcription-notice')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: /People/ })[0]!);
    const row = (name: string) => screen.getAllByTestId('person').find((r) => r.textContent?.includes(name))!;
    expect(within(row('Gus')).getByTestId('consent-tag')).toHaveTextContent('Not transcribed');
    expect(within(row('Ann')).getByTestId('consent-tag')).toHaveTextContent('Not answered');
    expect(within(row('Hana')).queryByTestId('consent-tag')).toBeNull();
    // Ann declines later: the host's list follows the server.
    act(() =>
      room!.socket().receive({
        type: 'participant_updated',
        participant: { ...others[1]!, transcriptionConsent: 'declined' },
      }),
    );
    expect(within(row('Ann')).getByTestId('consent-tag')).toHaveTextContent('Not transcribed');
    act(() => room!.socket().receive({ type: 'transcription_state', transcription: OFF }));
    expect(screen.queryByTestId('consent-tag')).toBeNull();
    expect(screen.queryByTestId('transcription-badge')).toBeNull();
  });

  it('a guest sees who declined, but not who has not answered', async () => {
    const others = [participant('g2', 'Gus', { transcriptionConsent: 'declined' }), participant('a1', 'Ann')];
    room = await enterTestRoom(participant('b1', 'Bea'), { transcription: ON, others });
    renderRoom(room);
    fireEvent.click(screen.getAllByRole('button', { name: /People/ })[0]!);
    expect(screen.getAllByTestId('consent-tag').map((t) => t.textContent)).toEqual(['Not transcribed']);
  });
});

describe('TranscriptList', () => {
  it('shows the room’s notice lines apart from speech', () => {
    render(
      <TranscriptList
        active
        lines={[
          {
            id: 'n1',
            speakerName: 'Gus',
            originalText: 'Gus declined to be transcribed',
            translatedText: null,
            timestamp: '2026-11-23T10:00:01.000Z',
            language: 'en',
            kind: 'notice',
          },
          {
            id: 's1',
            speakerName: 'Hana',
            originalText: 'Hello everyone',
            translatedText: null,
            timestamp: '2026-11-23T10:00:02.000Z',
            language: 'en',
          },
        ]}
      />,
    );
    expect(screen.getByTestId('transcript-notice')).toHaveTextContent('Gus declined to be transcribed');
    expect(screen.getAllByTestId('transcript-line')).toHaveLength(1);
  });
});
