import { ComingSoon } from '@/components/ComingSoon';

export function MeetingRoomPage() {
  return (
    <ComingSoon
      title="Meeting Room"
      what="The meeting room (video, audio, chat, screen share) arrives with the meeting-room issue."
    />
  );
}
