import { ComingSoon } from '@/components/ComingSoon';

export function SchedulePage() {
  return (
    <ComingSoon
      title="Schedule a Meeting"
      what="Scheduling meetings with calendar invitations arrives with the meetings issue."
    />
  );
}
