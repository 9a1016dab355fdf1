import { useState } from 'react';
import { useUser } from '@/features/auth/api';
import { useSubscriptionStatus } from '@/features/subscription/api';
import { useBackgroundPreferences, useSavePreferences } from './api';
import { choiceFromPreferences, preferencesUpdate, type BackgroundChoice } from './effect';

/** The signed-in user and whether they have Pro (premium pictures and uploads). */
export function useAccount() {
  const { user, isLoading } = useUser();
  const status = useSubscriptionStatus(user?.email ?? null);
  return { user, isLoading, isPro: !!status.data?.isActive };
}

/**
 * The signed-in user's saved background, for the Settings card and the demo page: the choice
 * shows at once (optimistic) and is saved with PUT; a refused save (a premium picture without
 * Pro) goes back to what was saved. `live` is what to draw right now (the slider while moving).
 */
export function useSavedBackground() {
  const account = useAccount();
  const prefs = useBackgroundPreferences(!!account.user);
  const save = useSavePreferences();
  const [pending, setPending] = useState<BackgroundChoice | null>(null);
  const [preview, setPreview] = useState<BackgroundChoice | null>(null);
  const value = pending ?? choiceFromPreferences(prefs.data);
  const change = (choice: BackgroundChoice) => {
    setPending(choice);
    setPreview(null);
    save.mutate(preferencesUpdate(choice, account.user?.id), {
      onSettled: () => setPending(null),
    });
  };
  return {
    ...account,
    loading: account.isLoading || prefs.isLoading,
    value,
    live: preview ?? value,
    change,
    preview: setPreview,
  };
}
