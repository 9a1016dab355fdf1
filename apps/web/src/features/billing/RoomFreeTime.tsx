import { useUser } from '@/features/auth/api';
import { FreeTimeOverlay } from './FreeTimeOverlay';
import type { FreeTimeClient } from './free-time';

/** The billing overlay of a joined room: its session's clock, join token and billing e-mail. */
export function RoomFreeTime({
  session,
  panelOpen,
}: {
  session: { freeTime: FreeTimeClient; meetingId: string; joinToken: string; billingEmail: string | null };
  panelOpen: boolean;
}) {
  const { user } = useUser();
  return (
    <FreeTimeOverlay
      clock={session.freeTime}
      meetingId={session.meetingId}
      joinToken={session.joinToken}
      billingEmail={session.billingEmail ?? user?.email ?? ''}
      panelOpen={panelOpen}
    />
  );
}
