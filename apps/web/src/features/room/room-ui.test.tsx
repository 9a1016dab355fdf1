import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { classifyJoinError, meetingSessionId } from './api';
import { MessageText } from './components/ChatPanel';
import { EndScreen } from './components/StatusScreens';
import { shareLink } from '@/features/meetings/copy-link';
import { participantCountLabel } from './components/RoomHeader';
import { formatElapsed } from './hooks';
import { shortcutFor } from './keyboard';
import { togglePanel } from './layout';
import { mergeChat } from './room-session';
import { DEFAULT_PREFERENCES } from './preferences';
import { linkJoinChoice, validateRoomName } from './room-state';

const apiError = (status: number, body: object) => new ApiError(status, JSON.stringify(body), body);

describe('room rules', () => {
  it('validates the display name as the spec says', () => {
    expect(validateRoomName(' A ')).toBe('Name must be at least 2 characters');
    expect(validateRoomName('Al')).toBeNull();
    expect(validateRoomName('x'.repeat(51))).toMatch(/at most 50/);
  });

  it('refuses a name with a control or direction-override character, as the server does', () => {
    expect(validateRoomName('Ann\u0000')).toBe('Name must not contain control characters');
    expect(validateRoomName('Ann\u202Egnp.exe')).toBe(
      'Name must not contain text-direction override characters',
    );
    expect(validateRoomName('Zoë 🎉')).toBeNull();
    expect(validateRoomName('مريم')).toBeNull();
    expect(validateRoomName('שרה')).toBeNull();
  });

  it('joins from a ?name= link as the spec says, and asks when the name is invalid', () => {
    expect(linkJoinChoice(' Gus ', false, DEFAULT_PREFERENCES)).toEqual({
      name: 'Gus',
      audio: false,
      video: true,
    });
    expect(linkJoinChoice('Hana', true, DEFAULT_PREFERENCES)).toEqual({
      name: 'Hana',
      audio: true,
      video: true,
    });
    const prefs = { ...DEFAULT_PREFERENCES, joinMuted: false, joinCameraOff: true };
    expect(linkJoinChoice('Gus', false, prefs)).toMatchObject({ audio: true, video: false });
    expect(linkJoinChoice('G', false, DEFAULT_PREFERENCES)).toBeNull();
    expect(linkJoinChoice('', true, DEFAULT_PREFERENCES)).toBeNull();
  });

  it('keeps one session id per meeting in session storage', () => {
    sessionStorage.clear();
    const a = meetingSessionId('111-111-111');
    expect(a).toMatch(/^session-\d{13}-/);
    expect(meetingSessionId('111-111-111')).toBe(a);
    expect(meetingSessionId('222-222-222')).not.toBe(a);
  });

  it('turns join failures into the screens a person sees', () => {
    expect(classifyJoinError(apiError(404, { message: 'Meeting not found' }), false)).toEqual({
      kind: 'not_found',
    });
    expect(classifyJoinError(apiError(410, { message: 'This meeting has ended' }), false)).toEqual({
      kind: 'ended',
    });
    expect(classifyJoinError(apiError(409, { message: 'Meeting is full' }), false)).toEqual({ kind: 'full' });
    // Full at the peer-to-peer cap of a server without a video server: its own words are shown.
    const meshFull = 'Without a video server, meetings here hold up to 4 people.';
    expect(classifyJoinError(apiError(409, { message: meshFull }), false)).toEqual({
      kind: 'full',
      message: meshFull,
    });
    expect(classifyJoinError(apiError(401, { message: 'x', requiresPassword: true }), false)).toEqual({
      kind: 'password',
      wrong: false,
    });
    expect(
      classifyJoinError(
        apiError(403, { message: 'Incorrect meeting password', requiresPassword: true }),
        true,
      ),
    ).toEqual({ kind: 'password', wrong: true });
    // Other refusals are errors with the server's words, not a password prompt.
    expect(classifyJoinError(apiError(403, { message: 'Forbidden' }), false)).toEqual({
      kind: 'error',
      message: 'Forbidden',
    });
    expect(classifyJoinError(apiError(401, { message: 'Invalid session' }), true)).toEqual({
      kind: 'error',
      message: 'Invalid session',
    });
    expect(classifyJoinError(apiError(429, { message: 'slow down' }), true)).toEqual({
      kind: 'rate_limited',
      message: 'slow down',
    });
    expect(classifyJoinError(new TypeError('fetch failed'), false).kind).toBe('error');
  });

  it("keeps the server's words for refusals that say why: deny list, locked password, full waiting room", () => {
    const removed = 'The host removed you from this meeting. You cannot join it again.';
    expect(classifyJoinError(apiError(403, { message: removed }), false)).toEqual({
      kind: 'removed',
      message: removed,
    });
    const locked =
      'Too many wrong passwords were tried for this meeting. Password entry is locked; please try again in 15 minutes.';
    expect(classifyJoinError(apiError(429, { message: locked }), true)).toEqual({
      kind: 'rate_limited',
      message: locked,
    });
    const waiting = 'The waiting room of this meeting is full. Please try again later.';
    expect(classifyJoinError(apiError(429, { message: waiting }), false)).toEqual({
      kind: 'full',
      message: waiting,
    });
  });

  it('shows the server text on the end screen for those refusals', () => {
    const removed = 'The host removed you from this meeting. You cannot join it again.';
    const { unmount } = render(
      <MemoryRouter>
        <EndScreen kind="removed" detail={removed} />
      </MemoryRouter>,
    );
    expect(screen.getByText(removed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rejoin' })).not.toBeInTheDocument();
    unmount();
    const waiting = 'The waiting room of this meeting is full. Please try again later.';
    render(
      <MemoryRouter>
        <EndScreen kind="full" detail={waiting} />
      </MemoryRouter>,
    );
    expect(screen.getByText(waiting)).toBeInTheDocument();
  });

  it('counts participants with singular and plural', () => {
    expect(participantCountLabel(1)).toBe('1 participant');
    expect(participantCountLabel(3)).toBe('3 participants');
  });

  it('shares {origin}/meeting/{id}', () => {
    expect(shareLink('https://parley.example', '123-456-789')).toBe(
      'https://parley.example/meeting/123-456-789',
    );
  });

  it('formats the timer as mm:ss, minutes counting past an hour', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(65_400)).toBe('01:05');
    expect(formatElapsed(3_725_000)).toBe('62:05');
  });

  it('closes the side panel when the active tab is clicked', () => {
    expect(togglePanel('none', 'chat')).toBe('chat');
    expect(togglePanel('chat', 'chat')).toBe('none');
    expect(togglePanel('chat', 'participants')).toBe('participants');
  });

  it('maps keys to shortcuts, but not while typing or with modifiers', () => {
    const input = document.createElement('input');
    const base = { ctrlKey: false, metaKey: false, altKey: false, target: document.body };
    expect(shortcutFor({ ...base, key: 'm' })).toBe('mute');
    expect(shortcutFor({ ...base, key: 'V' })).toBe('video');
    expect(shortcutFor({ ...base, key: 'c', ctrlKey: true })).toBeNull();
    expect(shortcutFor({ ...base, key: 'm', target: input })).toBeNull();
    expect(shortcutFor({ ...base, key: 'Escape', target: input })).toBe('escape');
  });

  it('merges chat history and live messages by id in time order', () => {
    const m = (id: string, t: string) => ({ id, content: id, senderName: 'A', senderId: 'a', timestamp: t });
    const merged = mergeChat(
      [m('2', '2026-01-01T00:00:02Z')],
      [m('1', '2026-01-01T00:00:01Z'), m('2', '2026-01-01T00:00:02Z')],
    );
    expect(merged.map((x) => x.id)).toEqual(['1', '2']);
  });
});

describe('chat text', () => {
  it('renders markup as text and links as links that open apart', () => {
    render(<MessageText text={'<img src=x onerror=alert(1)> see https://example.com/a?b=1 ok'} />);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)>/)).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'https://example.com/a?b=1' });
    expect(link).toHaveAttribute('href', 'https://example.com/a?b=1');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('does not turn javascript: text into a link', () => {
    render(<MessageText text="javascript:alert(1)" />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
