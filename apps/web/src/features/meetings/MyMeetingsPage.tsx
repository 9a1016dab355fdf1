import { ComingSoon } from '@/components/ComingSoon';

export function MyMeetingsPage() {
  return (
    <ComingSoon
      title="My Meetings"
      what="Your upcoming, live and past meetings will be listed here once the meetings issue lands."
    />
  );
}
