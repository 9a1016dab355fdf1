import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { useUser } from '@/features/auth/api';
import { useSubscriptionStatus } from '@/features/subscription/api';
import { useStore } from '@/lib/use-store';
import { BILLING_MESSAGES } from '@parley/protocol/texts';
import { joinMeeting } from './api';
import { PreJoinDialog } from './components/PreJoinDialog';
import { RoomView } from './components/RoomView';
import { EndScreen, JoiningScreen, PasswordScreen, WaitingScreen } from './components/StatusScreens';
import { RoomProvider } from './room-context';
import { RoomController } from './room-controller';

function useIsPro(): boolean {
  const { user } = useUser();
  const status = useSubscriptionStatus(user?.email ?? null);
  return !!status.data?.isActive;
}

/**
 * The name the pre-join dialog starts with: the link's `?name=`, else the signed-in user's account
 * name (first and last, else the e-mail), else nothing for a guest to type.
 */
function useInitialName(queryName: string): string {
  const { user } = useUser();
  if (queryName) return queryName;
  if (!user) return '';
  return [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;
}

/** /meeting/{meetingId}: one screen per phase of the RoomController, full screen. */
export function MeetingRoomPage() {
  const { meetingId = '' } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const isPro = useIsPro();
  const initialName = useInitialName((query.get('name') ?? '').trim());
  const [controller] = useState(
    () =>
      new RoomController({
        meetingId,
        queryName: (query.get('name') ?? '').trim(),
        wantsHost: query.get('host') === 'true',
        join: joinMeeting,
        notify: (n) => toast(n),
      }),
  );
  const state = useStore(controller);

  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);

  useEffect(() => {
    document.title = `Meeting ${meetingId} · Parley`;
  }, [meetingId]);

  // Spec §4: when the free time and grace ran out without a card, the call ends and the person
  // goes to / ('Call Ended' / 'Free time expired without payment method.').
  const freeTimeEnded = state.phase === 'ended' && state.reason === 'free_time';
  useEffect(() => {
    if (!freeTimeEnded) return;
    toast({
      title: BILLING_MESSAGES.endedTitle,
      description: BILLING_MESSAGES.endedBody,
      variant: 'destructive',
    });
    void navigate('/');
  }, [freeTimeEnded, navigate]);

  switch (state.phase) {
    case 'idle':
    case 'joining':
      return <JoiningScreen meetingId={meetingId} />;
    case 'prejoin':
      return (
        <>
          <div className="min-h-dvh bg-slate-950" aria-hidden />
          <PreJoinDialog
            meetingId={meetingId}
            media={state.media}
            initialName={initialName}
            onJoin={(choice) => controller.join(choice)}
            onCancel={() => navigate('/')}
          />
        </>
      );
    case 'password':
      return (
        <PasswordScreen
          meetingId={meetingId}
          wrong={state.wrong}
          onSubmit={(pw) => controller.submitPassword(pw)}
        />
      );
    case 'waiting':
      return <WaitingScreen meetingId={meetingId} onLeave={() => controller.leave()} />;
    case 'in-room':
    case 'reconnecting':
      // One element for both phases, so the room (panels, dialogs) stays mounted while it resumes.
      return (
        <RoomProvider controller={controller} session={state.session} isPro={isPro}>
          <RoomView />
        </RoomProvider>
      );
    case 'ended':
      return <EndScreen kind={state.reason} detail={state.detail} onRejoin={() => controller.rejoin()} />;
  }
}
