import type { MeetingNotes } from '@parley/protocol/collaboration';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { apiRequest } from '@/lib/api';

/** /meetings/{id}/notes: the meeting's shared notes, for its owner, after (or during) the meeting. */
export function MeetingNotesPage() {
  const { meetingId = '' } = useParams();
  const notes = useQuery({
    queryKey: ['meeting-notes', meetingId],
    queryFn: () => apiRequest<MeetingNotes>('GET', `/api/meetings/${encodeURIComponent(meetingId)}/notes`),
  });
  return (
    <main className="mx-auto w-full max-w-3xl space-y-4 px-4 py-8">
      <Button asChild size="sm" variant="ghost">
        <Link to="/meetings">
          <ArrowLeft /> My Meetings
        </Link>
      </Button>
      <h1 className="text-2xl font-semibold">Meeting notes</h1>
      <p className="text-sm text-slate-500">Meeting {meetingId}</p>
      {notes.isPending ? <p className="text-slate-500">Loading...</p> : null}
      {notes.isError ? (
        <p role="alert" className="text-red-600">
          These notes could not be loaded: {notes.error.message}
        </p>
      ) : null}
      {notes.data ? (
        notes.data.text ? (
          <article
            data-testid="meeting-notes"
            className="whitespace-pre-wrap rounded-xl border border-slate-200 bg-white p-4 text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            {notes.data.text}
          </article>
        ) : (
          <p className="text-slate-500">Nobody wrote notes in this meeting.</p>
        )
      ) : null}
      {notes.data?.updatedAt ? (
        <p className="text-xs text-slate-500">Last saved {new Date(notes.data.updatedAt).toLocaleString()}</p>
      ) : null}
    </main>
  );
}
