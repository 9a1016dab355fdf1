import { FREE_TIER } from '@parley/protocol/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Label } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast-store';
import { ApiError } from '@/lib/api';
import { freeTimeCoverKey, setFreeTimeCover, useFreeTimeCover } from './api';

/**
 * The meeting's Pro host covers everyone's time (default on, issue 37 item 3: the host's licence
 * covers the meeting): nobody in this meeting has the free tier's 45-minute limit while it is on.
 * The server keeps the choice and stops the clocks; off, the host is told when a guest's free time
 * is about to end and when it ran out.
 */
export function CoverEveryoneSetting({ meetingId }: { meetingId: string }) {
  const cover = useFreeTimeCover(meetingId, true);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (cover.isError) return null; // not this meeting's signed-in owner: nothing to choose
  const change = async (on: boolean) => {
    setBusy(true);
    try {
      const next = await setFreeTimeCover(meetingId, on);
      queryClient.setQueryData([freeTimeCoverKey(meetingId)], next);
    } catch (err) {
      toast({
        title: 'Could not change who pays',
        description: err instanceof ApiError ? err.serverMessage : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <Label htmlFor="cover-everyone" className="grid gap-0.5">
        <span>Cover everyone&apos;s time</span>
        <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
          On: participants without Pro get unlimited time in this meeting, paid by your Pro. Off: they get{' '}
          {FREE_TIER.freeMinutesPerMeeting} free minutes, and you are told before theirs runs out.
        </span>
      </Label>
      <Switch
        id="cover-everyone"
        checked={cover.data?.coverEveryone ?? true}
        disabled={busy || !cover.data}
        onCheckedChange={(v) => void change(v)}
      />
    </div>
  );
}
