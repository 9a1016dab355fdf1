import type { MeetingReport } from '@parley/protocol/report';
import { ArrowLeft, Clock, Download, FileText, MessageSquare, Users } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { RequireSignIn } from '@/features/auth/RequireSignIn';
import { ApiError } from '@/lib/api';
import { useMyRecordings } from '@/features/meetings/api';
import { RecordingList, RecordingPlayer } from '@/features/meetings/RecordingList';
import { reportPdfUrl, useMeetingReport } from './api';
import { formatDate, formatDuration, formatTime, percentOf } from './format';

// recharts is large: it loads with the chart, after the figures are on screen.
const TalkTimeChart = lazy(() => import('./TalkTimeChart'));

/** The meeting's recordings on its report: the latest ready one plays here, all are listed. */
function Recordings({ meetingId }: { meetingId: string }) {
  const recordings = useMyRecordings(true);
  const mine = (recordings.data ?? []).filter((r) => r.meetingId === meetingId);
  if (mine.length === 0) return null;
  const latest = mine.find((r) => r.status === 'ready' && r.playUrl);
  return (
    <Card className="mt-6" data-testid="report-recordings">
      <CardHeader>
        <CardTitle>Recording</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {latest ? <RecordingPlayer recording={latest} /> : null}
        <RecordingList recordings={mine} />
      </CardContent>
    </Card>
  );
}

function BackLink() {
  return (
    <Button asChild size="sm" variant="ghost" className="mb-4">
      <Link to="/meetings">
        <ArrowLeft /> My Meetings
      </Link>
    </Button>
  );
}

function Stat({
  icon,
  label,
  value,
  testId,
}: {
  icon: ReactNode;
  label: string;
  value: string;
  testId: string;
}) {
  return (
    <Card>
      <CardContent className="flex items-center gap-3 p-4">
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/50">
          {icon}
        </span>
        <div className="min-w-0">
          <p className="text-xs text-slate-500">{label}</p>
          <p className="text-xl font-semibold" data-testid={testId}>
            {value}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}

function Attendance({ report }: { report: MeetingReport }) {
  const total = report.totals.talkMs;
  if (report.attendance.length === 0) return <p className="text-slate-500">Nobody joined this meeting.</p>;
  return (
    <>
      {/* Phones: one card per participant. */}
      <ul className="space-y-2 sm:hidden" aria-label="Attendance">
        {report.attendance.map((a) => (
          <li
            key={a.participantId}
            className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
          >
            <p className="font-medium">
              {a.name}
              {a.isHost ? <span className="ml-2 text-xs text-slate-500">Host</span> : null}
            </p>
            <p className="text-slate-600 dark:text-slate-400">
              {formatTime(a.joinedAt)} – {a.leftAt ? formatTime(a.leftAt) : 'still in'} ·{' '}
              {formatDuration(a.presentMs)}
            </p>
            <p className="text-slate-600 dark:text-slate-400">
              Talk time {formatDuration(a.talkMs)} ({percentOf(a.talkMs, total)})
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-left text-sm" data-testid="attendance-table">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-2 pr-4 font-medium">Participant</th>
              <th className="py-2 pr-4 font-medium">Joined</th>
              <th className="py-2 pr-4 font-medium">Left</th>
              <th className="py-2 pr-4 font-medium">Present</th>
              <th className="py-2 pr-4 font-medium">Talk time</th>
              <th className="py-2 font-medium">Share</th>
            </tr>
          </thead>
          <tbody>
            {report.attendance.map((a) => (
              <tr
                key={a.participantId}
                className="border-t border-slate-200 dark:border-slate-700"
                data-testid="attendance-row"
              >
                <td className="py-2 pr-4 font-medium">
                  {a.name}
                  {a.isHost ? <span className="ml-2 text-xs font-normal text-slate-500">Host</span> : null}
                </td>
                <td className="py-2 pr-4">{formatTime(a.joinedAt)}</td>
                <td className="py-2 pr-4">{a.leftAt ? formatTime(a.leftAt) : 'Still in'}</td>
                <td className="py-2 pr-4">{formatDuration(a.presentMs)}</td>
                <td className="py-2 pr-4" data-testid="talk-time">
                  {formatDuration(a.talkMs)}
                </td>
                <td className="py-2">{percentOf(a.talkMs, total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Summary({ summary }: { summary: NonNullable<MeetingReport['summary']> }) {
  return (
    <div className="space-y-4 text-sm">
      <p className="whitespace-pre-wrap">{summary.summary}</p>
      <div>
        <h3 className="mb-1 font-semibold">Action Items</h3>
        {summary.actionItems.length ? (
          <ul className="list-disc space-y-1 pl-5">
            {summary.actionItems.map((a, i) => (
              <li key={i}>
                {a.text}
                <span className="text-slate-500">
                  {' '}
                  ({a.owner ? `owner: ${a.owner}` : 'owner: not named'}
                  {a.due ? `, due ${a.due}` : ''})
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-500">None</p>
        )}
      </div>
      <div>
        <h3 className="mb-1 font-semibold">Decisions</h3>
        {summary.decisions.length ? (
          <ul className="list-disc space-y-1 pl-5">
            {summary.decisions.map((d, i) => (
              <li key={i}>{d.text}</li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-500">None</p>
        )}
      </div>
    </div>
  );
}

/**
 * /meetings/{id}/report, for the meeting's host: duration, attendance, talk time (a chart),
 * chat and file counts, the AI summary when there is one, and the same as a PDF.
 */
export function ReportPage() {
  const { meetingId = '' } = useParams();
  const report = useMeetingReport(meetingId);
  const status = report.error instanceof ApiError ? report.error.status : null;

  if (status === 401) {
    return (
      <RequireSignIn
        title="Login Required"
        message="Please log in to see meeting reports."
        pageTitle="Meeting report"
        offerLogIn
      />
    );
  }
  if (report.isPending) {
    return (
      <Page title="Meeting report">
        <BackLink />
        <p className="text-slate-500" role="status">
          Loading the report...
        </p>
      </Page>
    );
  }
  if (report.isError) {
    return (
      <Page title="Meeting report">
        <BackLink />
        <Card className="max-w-lg">
          <CardContent className="space-y-3 p-6" role="alert">
            {status === 404 ? (
              <p>This meeting does not exist, or you are not its host.</p>
            ) : (
              <>
                <p>The report could not be loaded.</p>
                <Button size="sm" onClick={() => void report.refetch()}>
                  Try again
                </Button>
              </>
            )}
          </CardContent>
        </Card>
      </Page>
    );
  }
  const r = report.data;
  const nobody = r.attendance.length === 0;
  return (
    <Page
      title={r.title || 'Meeting report'}
      description={
        <>
          Meeting report · Meeting {r.meetingId}
          {r.startedAt ? ` · ${formatDate(r.startedAt)}` : ''}
        </>
      }
      actions={
        <Button asChild variant="secondary">
          <a href={reportPdfUrl(r.meetingId)} download data-testid="report-pdf">
            <Download /> Download PDF
          </a>
        </Button>
      }
    >
      <BackLink />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="report-stats">
        <Stat
          icon={<Clock className="size-5" />}
          label="Duration"
          value={formatDuration(r.durationMs)}
          testId="report-duration"
        />
        <Stat
          icon={<Users className="size-5" />}
          label="Participants"
          value={String(r.totals.participants)}
          testId="report-participants"
        />
        <Stat
          icon={<MessageSquare className="size-5" />}
          label="Chat messages"
          value={String(r.totals.chatMessages)}
          testId="report-chat"
        />
        <Stat
          icon={<FileText className="size-5" />}
          label="Files shared"
          value={String(r.totals.files)}
          testId="report-files"
        />
      </div>
      {!r.endedAt && r.startedAt ? (
        <p className="mt-3 text-sm text-amber-600">The meeting is still running: figures are up to now.</p>
      ) : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Talk time</CardTitle>
          </CardHeader>
          <CardContent>
            {nobody ? (
              <p className="text-slate-500">Nobody joined this meeting.</p>
            ) : r.totals.talkMs === 0 ? (
              <p className="text-slate-500">Nobody spoke with the microphone on.</p>
            ) : (
              <Suspense fallback={<p className="text-slate-500">Loading the chart...</p>}>
                <TalkTimeChart attendance={r.attendance} />
              </Suspense>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>AI summary</CardTitle>
          </CardHeader>
          <CardContent>
            {r.summary ? (
              <Summary summary={r.summary} />
            ) : (
              <p className="text-slate-500">No summary was generated for this meeting.</p>
            )}
          </CardContent>
        </Card>
      </div>
      <Recordings meetingId={r.meetingId} />
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Attendance</CardTitle>
        </CardHeader>
        <CardContent>
          <Attendance report={r} />
        </CardContent>
      </Card>
    </Page>
  );
}
