import { ComingSoon } from '@/components/ComingSoon';

export function VideoTestPage() {
  return (
    <ComingSoon title="Video Test" what="The camera start/stop test arrives with the meeting-room issue." />
  );
}
