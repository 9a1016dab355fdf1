import { useEffect, useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { toast } from '@/components/ui/toast-store';
import { useUser } from '@/features/auth/api';
import { useRoomContext, useRoomState } from '@/features/room/room-context';
import { ApiError } from '@/lib/api';
import { useStore } from '@/lib/use-store';
import { applyMeetingBackground, useBackgroundPreferences, useSavePreferences } from './api';
import { BackgroundPanel } from './BackgroundPanel';
import {
  choiceFromPreferences,
  meetingBackgroundBody,
  preferencesUpdate,
  type BackgroundChoice,
} from './effect';
import { liveEffectFor } from './live-effect';

/** The spec's texts for applying a background in a meeting (§8). */
export const APPLY_TEXTS = {
  success: {
    title: 'Background updated',
    description: 'Your background effect has been applied successfully.',
  },
  failure: { title: 'Error', description: 'Failed to apply background effect. Please try again.' },
} as const;

const showProcessorError = (message: string) => toast({ title: message, variant: 'destructive' });

/**
 * Applying a background inside the meeting: None and Blur take effect at once (spec §4) while the
 * server records them; a picture is applied once the server accepted it (it refuses premium ones
 * without Pro). A refused change goes back to the previous effect. Signed-in users' choice is
 * also saved as their preference, so their next meeting starts with it.
 */
export function useMeetingBackground() {
  const { session } = useRoomContext();
  const room = useRoomState();
  const { user } = useUser();
  const save = useSavePreferences();
  const live = liveEffectFor(session.media, showProcessorError);
  const snap = useStore(live);

  const apply = async (choice: BackgroundChoice, { quiet = false } = {}) => {
    const previous = live.getSnapshot().choice;
    const immediate = choice.type === 'none' || choice.type === 'blur';
    if (immediate) live.apply(choice);
    try {
      await applyMeetingBackground(
        session.meetingId,
        room.self?.id,
        meetingBackgroundBody(choice),
        session.joinToken,
      );
    } catch (err) {
      if (immediate) live.apply(previous);
      const refused = err instanceof ApiError && err.requiresSubscription;
      toast({
        title: APPLY_TEXTS.failure.title,
        description: refused ? err.serverMessage : APPLY_TEXTS.failure.description,
        variant: 'destructive',
      });
      return false;
    }
    if (!immediate) live.apply(choice);
    if (!quiet) toast({ ...APPLY_TEXTS.success, variant: 'success' });
    if (user && !quiet) save.mutate(preferencesUpdate(choice, user.id));
    return true;
  };

  return {
    choice: snap.choice,
    processor: snap.processor,
    apply,
    preview: (c: BackgroundChoice) => live.apply(c),
  };
}

/** The panel inside the meeting's settings (spec §2). */
export function MeetingBackgroundPanel() {
  const { isPro } = useRoomContext();
  const { user } = useUser();
  const { choice, processor, apply, preview } = useMeetingBackground();
  const status = processor?.status;
  return (
    <BackgroundPanel
      value={choice}
      onChange={(c) => void apply(c)}
      onPreview={preview}
      signedIn={!!user}
      isPro={isPro}
      extra={
        status ? (
          <Badge variant={status === 'ready' ? 'success' : 'warning'} data-testid="processor-badge">
            {status === 'ready' ? 'Ready' : status === 'failed' ? 'Unavailable' : 'Initializing'}
          </Badge>
        ) : null
      }
    />
  );
}

/**
 * Starts the meeting with the signed-in user's saved background (spec §4: the initial state comes
 * from the preferences), once, when this participant is in the room. Renders nothing.
 */
export function MeetingBackgroundRestore() {
  const { user, isLoading } = useUser();
  const prefs = useBackgroundPreferences(!!user);
  const room = useRoomState();
  const { apply } = useMeetingBackground();
  const done = useRef(false);
  const selfId = room.self?.id;
  useEffect(() => {
    if (done.current || !selfId || isLoading) return;
    if (user && prefs.isLoading) return;
    done.current = true;
    const choice = choiceFromPreferences(prefs.data);
    if (choice.type !== 'none') void apply(choice, { quiet: true });
    // `apply` changes every render; the restore runs once, when the room and preferences are known.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selfId, isLoading, user, prefs.isLoading, prefs.data]);
  return null;
}
