import { useCallback } from 'react';
import { toast } from '@/components/ui/toast-store';
import { useStore } from '@/lib/use-store';
import { useRoomContext, useRoomState } from '../room-context';
import type { CaptionsSnapshot } from './captions';

/** The room's live captions: transcription state, the last lines, this listener's translation. */
export function useCaptions(): CaptionsSnapshot {
  return useStore(useRoomContext().session.captions);
}

/**
 * Start / Stop Transcription (and the bar's Start AI / Stop AI): the meeting's transcription is
 * room state on the server. Without Pro the upgrade dialog opens (spec §2, §6); the server says the
 * same (subscription_required) if the client's view of Pro was stale. Only a host and whoever
 * started it stop it for everyone (`canStop`); the others answer for themselves (consent).
 */
export function useTranscriptionToggle() {
  const { session, layout, isPro } = useRoomContext();
  const { transcription, busy } = useCaptions();
  const on = transcription.active;
  const toggle = useCallback(async () => {
    const want = !session.captions.getSnapshot().transcription.active;
    if (want && !isPro) {
      layout.setDialog('upgrade');
      return;
    }
    const refused = await session.captions.setTranscription(want);
    if (refused === 'subscription_required') layout.setDialog('upgrade');
    else if (refused === 'no_microphone') {
      toast({
        title: 'Transcription needs a microphone',
        description: 'Allow or connect a microphone, then start transcription again.',
        variant: 'destructive',
      });
    } else if (refused === 'failed') {
      toast({
        title: want ? 'Could not start transcription' : 'Could not stop transcription',
        variant: 'destructive',
      });
    }
  }, [session, layout, isPro]);
  const { self } = useRoomState();
  const canStop = !!self && (self.isHost || transcription.startedBy?.id === self.id);
  return { on, busy, toggle, canStop, startedBy: transcription.startedBy };
}

/**
 * This participant's consent to transcription (issue 34): whether the notice waits for an answer,
 * the answer the server keeps, and the actions. Nothing of this microphone is sent while the
 * notice waits or after a decline (captions.ts); the server refuses it too.
 */
export function useTranscriptionConsent() {
  const { session } = useRoomContext();
  const { transcription, consent, answering } = useCaptions();
  const on = transcription.active;
  const answer = useCallback(
    async (choice: 'allowed' | 'declined') => {
      const ok = await session.captions.setConsent(choice);
      if (!ok) toast({ title: 'Could not save your answer. Try again.', variant: 'destructive' });
    },
    [session],
  );
  return {
    on,
    consent,
    answering,
    startedBy: transcription.startedBy,
    /** Transcription is on and this participant has not answered: the notice shows. */
    asking: on && consent === null,
    declined: consent === 'declined',
    allow: useCallback(() => void answer('allowed'), [answer]),
    decline: useCallback(() => void answer('declined'), [answer]),
  };
}
