import { ComingSoon } from '@/components/ComingSoon';

export function CameraTestPage() {
  return <ComingSoon title="Camera Test" what="Camera diagnostics arrive with the meeting-room issue." />;
}
