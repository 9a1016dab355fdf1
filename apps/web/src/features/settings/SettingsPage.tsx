import { ComingSoon } from '@/components/ComingSoon';

export function SettingsPage() {
  return (
    <ComingSoon
      title="Settings"
      what="Profile, subscription, appearance and language settings arrive with the sign-in issue."
    />
  );
}
