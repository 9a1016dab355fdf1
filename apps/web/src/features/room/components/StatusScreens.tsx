import { Clock, Lock, LogOut, SearchX, ShieldAlert, TimerOff, UserX, Users, WifiOff } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import type { EndKind } from '../room-state';

/** Full-screen states of the room: joining, waiting, refused, ended, left. */
export function StatusScreen({
  icon,
  title,
  children,
  actions,
  testId,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <main
      data-testid={testId}
      className="grid min-h-dvh place-items-center bg-slate-950 px-4 py-10 text-slate-100"
    >
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-slate-800 bg-slate-900 p-8 text-center shadow-xl">
        {icon ? (
          <div className="grid size-14 place-items-center rounded-full bg-slate-800">{icon}</div>
        ) : null}
        <h1 className="text-xl font-semibold">{title}</h1>
        {children ? <div className="text-sm text-slate-400">{children}</div> : null}
        {actions ? <div className="mt-2 flex flex-wrap justify-center gap-2">{actions}</div> : null}
      </div>
    </main>
  );
}

export function HomeButton({ variant = 'secondary' }: { variant?: 'secondary' | 'primary' }) {
  return (
    <Button asChild variant={variant}>
      <Link to="/">Go Home</Link>
    </Button>
  );
}

export function JoiningScreen({ meetingId }: { meetingId: string }) {
  return (
    <StatusScreen
      testId="room-joining"
      icon={<Spinner className="size-7 text-brand-200" label="Joining" />}
      title="Joining Meeting"
    >
      <p>Setting up your camera and microphone...</p>
      <p className="mt-2 font-mono text-slate-300">{meetingId}</p>
    </StatusScreen>
  );
}

export function WaitingScreen({ meetingId, onLeave }: { meetingId: string; onLeave: () => void }) {
  return (
    <StatusScreen
      testId="room-waiting"
      icon={<Clock className="size-7 text-amber-300" />}
      title="Waiting for the host"
      actions={
        <Button variant="secondary" onClick={onLeave}>
          Leave
        </Button>
      }
    >
      <p>The host will let you in soon. Meeting {meetingId}.</p>
    </StatusScreen>
  );
}

export function PasswordScreen({
  meetingId,
  wrong,
  onSubmit,
}: {
  meetingId: string;
  wrong: boolean;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <StatusScreen
      testId="room-password"
      icon={<Lock className="size-7 text-brand-200" />}
      title="This meeting needs a password"
    >
      <form onSubmit={submit} className="mt-2 grid gap-3 text-left">
        <p>Enter the password the host shared for meeting {meetingId}.</p>
        <Label htmlFor="meeting-password" className="text-slate-200">
          Meeting password
        </Label>
        <Input
          id="meeting-password"
          type="password"
          autoFocus
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={wrong}
        />
        {wrong ? (
          <p role="alert" className="text-red-400">
            Incorrect password. Please try again.
          </p>
        ) : null}
        <Button type="submit" disabled={!password}>
          Join Meeting
        </Button>
      </form>
    </StatusScreen>
  );
}

const END_TEXT: Record<EndKind, { title: string; text: string; icon: ReactNode }> = {
  not_found: {
    title: 'Meeting not found',
    text: 'There is no meeting with this ID. Check the link or the meeting ID and try again.',
    icon: <SearchX className="size-7 text-slate-300" />,
  },
  ended: {
    title: 'This meeting has ended',
    text: 'The host has ended this meeting. You can start or schedule a new one from the home page.',
    icon: <Clock className="size-7 text-slate-300" />,
  },
  full: {
    title: 'This meeting is full',
    text: 'The meeting has reached its maximum number of participants. Try again later.',
    icon: <Users className="size-7 text-amber-300" />,
  },
  rate_limited: {
    title: 'Too many attempts',
    text: 'Please wait a minute before trying to join again.',
    icon: <ShieldAlert className="size-7 text-amber-300" />,
  },
  denied: {
    title: 'The host did not let you in',
    text: 'Your request to join this meeting was declined.',
    icon: <UserX className="size-7 text-red-300" />,
  },
  removed: {
    title: 'You were removed from the meeting',
    text: 'The host removed you from this meeting.',
    icon: <UserX className="size-7 text-red-300" />,
  },
  left: {
    title: 'You left the meeting',
    text: 'Thanks for joining.',
    icon: <LogOut className="size-7 text-slate-300" />,
  },
  connection_lost: {
    title: 'Connection lost',
    text: 'We could not reach the meeting for a while. Check your network and rejoin.',
    icon: <WifiOff className="size-7 text-red-300" />,
  },
  replaced: {
    title: 'You joined from another tab',
    text: 'This meeting is open in another tab or window, so this one was disconnected.',
    icon: <LogOut className="size-7 text-slate-300" />,
  },
  free_time: {
    title: 'Call Ended',
    text: 'Free time expired without payment method.',
    icon: <TimerOff className="size-7 text-red-300" />,
  },
  error: {
    title: 'Could not join the meeting',
    text: 'Something went wrong.',
    icon: <ShieldAlert className="size-7 text-red-300" />,
  },
};

/** Ends whose text is the server's own when it gave one (a refused join says why and for how long). */
const DETAIL_KINDS = new Set<EndKind>(['error', 'rate_limited', 'full', 'removed']);

export function EndScreen({
  kind,
  detail,
  onRejoin,
}: {
  kind: EndKind;
  detail?: string | null;
  onRejoin?: () => void;
}) {
  const t = END_TEXT[kind];
  const canRejoin =
    onRejoin && ['left', 'connection_lost', 'replaced', 'error', 'rate_limited'].includes(kind);
  return (
    <StatusScreen
      testId={`room-end-${kind}`}
      icon={t.icon}
      title={t.title}
      actions={
        <>
          {canRejoin ? <Button onClick={onRejoin}>Rejoin</Button> : null}
          <HomeButton variant={canRejoin ? 'secondary' : 'primary'} />
        </>
      }
    >
      <p>{detail && DETAIL_KINDS.has(kind) ? detail : t.text}</p>
    </StatusScreen>
  );
}
