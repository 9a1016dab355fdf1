import { useUser } from '@/features/auth/api';
import { FreeTimeOverlay } from './FreeTimeOverlay';
import type { FreeTimeClient } from './free-time';

/**
 * The billing overlay of a joined room: its session's clock and join token. The payment card's
 * e-mail starts as the signed-in user's; a guest types one only there, when it is needed.
 */
export function RoomFreeTime({
  session,
  panelOpen,
}: {
  session: { freeTime: FreeTimeClient; meetingId: string; joinToken: string };
  panelOpen: boolean;
}) {
  const { user } = useUser();
  return (
    <FreeTimeOverlay
      clock={session.freeTime}
      meetingId={session.meetingId}
      joinToken={session.joinToken}
      billingEmail={user?.email ?? ''}
      panelOpen={panelOpen}
    />
  );
}
