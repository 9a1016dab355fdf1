import type { Meeting, Recording } from '@parley/protocol';
import { formatMeetingTime } from '@parley/protocol/meetings';
import {
  BarChart3,
  Check,
  Clock,
  Copy,
  Lock,
  Pencil,
  Play,
  Repeat,
  StickyNote,
  Trash2,
  Users,
} from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { Link, useNavigate } from 'react-router';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/components/ui/toast-store';
import { useCopyMeetingLink } from './copy-link';
import type { MeetingBadge } from './meeting-list';
import { RecordingList } from './RecordingList';

const BADGE_VARIANT: Record<MeetingBadge, BadgeProps['variant']> = {
  Live: 'success',
  Ended: 'default',
  Cancelled: 'danger',
  Missed: 'warning',
  Scheduled: 'brand',
};

/** Copies the meeting link; `copied` is true for the spec's 2 s; a refusal shows the link. */
function useCopyLink(meetingId: string) {
  const { link, copied, copy: copyLink } = useCopyMeetingLink(meetingId);
  const copy = async () => {
    if (!(await copyLink()))
      toast({ title: 'Could not copy the link', description: link, variant: 'destructive' });
  };
  return { copied, copy };
}

function DeleteButton({
  meeting,
  onDelete,
  busy,
}: {
  meeting: Meeting;
  onDelete: () => void;
  busy: boolean;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="text-red-600 hover:bg-red-50 dark:hover:bg-red-950"
          disabled={busy}
        >
          <Trash2 /> Delete
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-semibold">Delete this meeting?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            “{meeting.title}” will be deleted and its invitees will receive a cancellation. This cannot be
            undone.
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="destructive" onClick={onDelete}>
                Delete
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export function MeetingCard({
  meeting,
  badge,
  onDelete,
  deleting,
  recordings = [],
}: {
  meeting: Meeting;
  badge: MeetingBadge;
  onDelete: () => void;
  deleting: boolean;
  recordings?: Recording[];
}) {
  const navigate = useNavigate();
  const { copied, copy } = useCopyLink(meeting.meetingId);
  const at = meeting.nextOccurrence ?? meeting.scheduledFor;
  const editable =
    meeting.meetingType === 'scheduled' && meeting.status !== 'ended' && meeting.status !== 'cancelled';

  return (
    <Card data-testid="meeting-card" data-meeting-id={meeting.meetingId}>
      <CardContent className="flex flex-col gap-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate text-lg font-semibold">{meeting.title}</h3>
            <p className="text-sm text-slate-500">Meeting ID {meeting.meetingId}</p>
          </div>
          <Badge variant={BADGE_VARIANT[badge]} data-testid="meeting-badge">
            {badge}
          </Badge>
        </div>
        <ul className="grid gap-1.5 text-sm text-slate-600 dark:text-slate-300">
          {at ? (
            <li className="flex items-start gap-2">
              <Clock className="mt-0.5 size-4 shrink-0" />
              <span>
                {meeting.isRecurring ? 'Next: ' : ''}
                {formatMeetingTime(new Date(at), meeting.timezone)}{' '}
                <span className="text-slate-500">({meeting.timezone})</span>
                {meeting.duration ? ` · ${meeting.duration} min` : ''}
              </span>
            </li>
          ) : null}
          {meeting.isRecurring && meeting.recurrencePattern ? (
            <li className="flex items-center gap-2">
              <Repeat className="size-4" /> Repeats {meeting.recurrencePattern}
            </li>
          ) : null}
          <li className="flex items-center gap-2">
            <Users className="size-4" /> Up to {meeting.maxParticipants} participants
            {meeting.requiresPassword ? (
              <span className="ml-2 inline-flex items-center gap-1">
                <Lock className="size-3.5" /> Password
              </span>
            ) : null}
          </li>
        </ul>
        {meeting.description ? (
          <p className="line-clamp-2 text-sm text-slate-600 dark:text-slate-400">{meeting.description}</p>
        ) : null}
        <RecordingList recordings={recordings} />
        <div className="flex flex-wrap gap-2">
          {meeting.status === 'scheduled' ? (
            <Button size="sm" onClick={() => navigate(`/meeting/${meeting.meetingId}?host=true`)}>
              <Play /> Start Meeting
            </Button>
          ) : null}
          <Button size="sm" variant="secondary" onClick={copy} aria-live="polite">
            {copied ? <Check /> : <Copy />} {copied ? 'Copied!' : 'Copy Link'}
          </Button>
          {editable ? (
            <Button asChild size="sm" variant="ghost">
              <Link to={`/schedule?edit=${meeting.meetingId}`}>
                <Pencil /> Edit
              </Link>
            </Button>
          ) : null}
          <Button asChild size="sm" variant="ghost">
            <Link to={`/meetings/${meeting.meetingId}/notes`}>
              <StickyNote /> Notes
            </Link>
          </Button>
          {meeting.status === 'live' ||
          meeting.status === 'ended' ||
          badge === 'Live' ||
          badge === 'Ended' ? (
            <Button asChild size="sm" variant="ghost">
              <Link to={`/meetings/${meeting.meetingId}/report`}>
                <BarChart3 /> Report
              </Link>
            </Button>
          ) : null}
          <DeleteButton meeting={meeting} onDelete={onDelete} busy={deleting} />
        </div>
      </CardContent>
    </Card>
  );
}
