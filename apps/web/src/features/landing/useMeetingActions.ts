import { NAME_LIMITS, REDIRECT_DELAYS_MS } from '@parley/protocol/constants';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { useUser } from '@/features/auth/api';
import { ApiError } from '@/lib/api';
import { useCreateInstantMeeting } from './api';
import { containsProfanity } from './profanity';

type Action = 'create' | 'join';

const INVALID_NAME = { title: 'Invalid name', description: 'Please use appropriate language for your name' };

/** `123456789`, ` 123-456-789 ` or a pasted meeting link become `123-456-789`. */
export function normalizeMeetingId(input: string): string {
  const value = input.trim();
  const fromLink = /\/meeting\/([^/?#\s]+)/.exec(value)?.[1];
  const id = decodeURIComponent(fromLink ?? value);
  return /^\d{9}$/.test(id) ? `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}` : id;
}

/**
 * The landing page's name, meeting id, create and join (spec §2, §5, §8): validation in the
 * spec's order with its toasts, the login redirect, and for a free account the way to Pro.
 */
export function useMeetingActions() {
  const [name, setNameValue] = useState('');
  const [meetingId, setMeetingId] = useState('');
  const { user, isLoading: userLoading, refetch: refetchUser } = useUser();
  const navigate = useNavigate();
  const createMeeting = useCreateInstantMeeting();
  const timers = useRef<number[]>([]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((t) => window.clearTimeout(t));
  }, []);

  const later = useCallback((ms: number, fn: () => void) => {
    timers.current.push(window.setTimeout(fn, ms));
  }, []);

  /** Typing a blocked word is refused: the field keeps its previous value. */
  const setName = useCallback((value: string) => {
    if (containsProfanity(value)) {
      toast({ ...INVALID_NAME, variant: 'destructive' });
      return;
    }
    setNameValue(value.slice(0, NAME_LIMITS.landingMax));
  }, []);

  function checkName(action: Action): string | null {
    const trimmed = name.trim();
    if (!trimmed) {
      toast({
        title: 'Name required',
        description:
          action === 'create'
            ? 'Please enter your name to create a meeting'
            : 'Please enter your name to join the meeting',
        variant: 'destructive',
      });
      return null;
    }
    if (containsProfanity(trimmed)) {
      toast({ ...INVALID_NAME, variant: 'destructive' });
      return null;
    }
    return trimmed;
  }

  /** The signed-in user; a click that comes before the first answer waits for it. */
  async function signedInUser() {
    if (!userLoading) return user;
    const result = await refetchUser();
    return result.data ?? null;
  }

  function checkLogin(action: Action, signedIn: boolean): boolean {
    if (signedIn) return true;
    toast({
      title: 'Authentication required',
      description:
        action === 'create' ? 'Please log in to create meetings' : 'Please log in to join meetings',
      variant: 'destructive',
    });
    later(REDIRECT_DELAYS_MS.login, () => {
      window.location.href = '/api/login';
    });
    return false;
  }

  async function create() {
    if (createMeeting.isPending) return;
    const trimmed = checkName('create');
    if (!trimmed || !checkLogin('create', !!(await signedInUser()))) return;
    createMeeting.mutate(
      { title: `${trimmed}'s Meeting` },
      {
        onSuccess: (meeting) => {
          navigate(`/meeting/${meeting.meetingId}?name=${encodeURIComponent(trimmed)}&host=true`);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 403) {
            // Hosting needs Pro (spec §1): not an error of the person's, so no red toast and no
            // timed redirect (issue 37 item 4). The subscribe page says why they are there and
            // what stays free.
            navigate('/subscribe?reason=host');
            return;
          }
          if (err instanceof ApiError && err.status === 401) {
            checkLogin('create', false);
            return;
          }
          toast({
            title: 'Failed to create meeting',
            description: (err instanceof ApiError && err.serverMessage) || 'Please try again',
            variant: 'destructive',
          });
        },
      },
    );
  }

  async function join() {
    const trimmed = checkName('join');
    if (!trimmed) return;
    const id = normalizeMeetingId(meetingId);
    if (!id) {
      toast({
        title: 'Meeting ID required',
        description: 'Please enter a meeting ID to join',
        variant: 'destructive',
      });
      return;
    }
    if (!checkLogin('join', !!(await signedInUser()))) return;
    navigate(`/meeting/${encodeURIComponent(id)}?name=${encodeURIComponent(trimmed)}`);
  }

  return {
    name,
    setName,
    meetingId,
    setMeetingId,
    create: () => void create(),
    join: () => void join(),
    isCreating: createMeeting.isPending,
    isSignedIn: !!user,
  };
}
