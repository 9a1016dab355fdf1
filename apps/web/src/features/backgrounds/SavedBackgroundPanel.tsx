import { Spinner } from '@/components/ui/spinner';
import { BackgroundPanel } from './BackgroundPanel';
import { useSavedBackground } from './hooks';

/** The panel bound to the signed-in user's saved preferences (the Settings card). */
export function SavedBackgroundPanel() {
  const saved = useSavedBackground();
  if (saved.loading) return <Spinner />;
  return (
    <BackgroundPanel
      value={saved.value}
      onChange={saved.change}
      signedIn={!!saved.user}
      isPro={saved.isPro}
    />
  );
}
