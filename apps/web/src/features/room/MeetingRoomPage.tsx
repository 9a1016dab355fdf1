import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from '@/components/ui/toast-store';
import { useUser } from '@/features/auth/api';
import { useSubscriptionStatus } from '@/features/subscription/api';
import { joinMeeting } from './api';
import { PreJoinDialog, validateRoomName } from './components/PreJoinDialog';
import { RoomView } from './components/RoomView';
import { EndScreen, JoiningScreen, PasswordScreen, WaitingScreen } from './components/StatusScreens';
import { useRoom } from './hooks';
import { RoomController } from './room-controller';
import type { RoomSession } from './room-session';

function useIsPro(): boolean {
  const { user } = useUser();
  const status = useSubscriptionStatus(user?.email ?? null);
  return !!status.data?.isActive;
}

function JoinedRoom({
  session,
  meetingId,
  isPro,
  onLeave,
}: {
  session: RoomSession;
  meetingId: string;
  isPro: boolean;
  onLeave: () => void;
}) {
  const room = useRoom(session);
  if (room.waiting) return <WaitingScreen meetingId={meetingId} onLeave={onLeave} />;
  if (!room.self) return <JoiningScreen meetingId={meetingId} />;
  return <RoomView session={session} isPro={isPro} onLeave={onLeave} />;
}

/** /meeting/{meetingId}: pre-join, join, the room and every end state, full screen. */
export function MeetingRoomPage() {
  const { meetingId = '' } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const isPro = useIsPro();
  const [controller] = useState(() => {
    const queryName = (query.get('name') ?? '').trim();
    const wantsHost = query.get('host') === 'true';
    return new RoomController({
      meetingId,
      queryName,
      wantsHost,
      autoJoin: wantsHost && validateRoomName(queryName) === null,
      join: joinMeeting,
      notify: (n) => toast(n),
    });
  });
  const { phase, media, session } = useSyncExternalStore(
    controller.subscribe,
    controller.getSnapshot,
    controller.getSnapshot,
  );

  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);

  useEffect(() => {
    document.title = `Meeting ${meetingId} · Parley`;
  }, [meetingId]);

  switch (phase.k) {
    case 'end':
      return <EndScreen kind={phase.kind} detail={phase.detail} onRejoin={() => controller.rejoin()} />;
    case 'password':
      return (
        <PasswordScreen
          meetingId={meetingId}
          wrong={phase.wrong}
          onSubmit={(pw) => controller.submitPassword(pw)}
        />
      );
    case 'room':
      return session ? (
        <JoinedRoom
          session={session}
          meetingId={meetingId}
          isPro={isPro}
          onLeave={() => controller.leave()}
        />
      ) : (
        <JoiningScreen meetingId={meetingId} />
      );
    case 'prejoin':
      if (!media) return <JoiningScreen meetingId={meetingId} />;
      return (
        <>
          <div className="min-h-dvh bg-slate-950" aria-hidden />
          <PreJoinDialog
            meetingId={meetingId}
            media={media}
            initialName={(query.get('name') ?? '').trim()}
            onJoin={(choice) => controller.join(choice)}
            onCancel={() => navigate('/')}
          />
        </>
      );
    default:
      return <JoiningScreen meetingId={meetingId} />;
  }
}
