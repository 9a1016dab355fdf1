import { ComingSoon } from '@/components/ComingSoon';

export function WebRtcTestPage() {
  return (
    <ComingSoon title="WebRTC Test" what="The two-tab peer video test arrives with the meeting-room issue." />
  );
}
