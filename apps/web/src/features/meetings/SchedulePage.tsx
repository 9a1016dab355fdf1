import { PRO_PLAN } from '@parley/protocol/constants';
import { ArrowLeft, Crown } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/spinner';
import { RequireSignIn } from '@/features/auth/RequireSignIn';
import { useUser } from '@/features/auth/api';
import { useSubscriptionStatus } from '@/features/subscription/api';
import { ApiError } from '@/lib/api';
import { useMeetingForEdit } from './api';
import { ScheduleForm, formFromMeeting, newForm } from './ScheduleForm';

function FormSkeleton() {
  return (
    <Card>
      <CardContent className="grid gap-4 p-6" aria-busy="true">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-10" />
        ))}
      </CardContent>
    </Card>
  );
}

/**
 * Scheduling is hosting, and hosting needs Pro (spec §1): a signed-in person without Pro is told
 * so before they fill in the form (issue 37 item 4), with what stays free; the form stays, so they
 * see what they would get, and sending it leads to the subscribe page rather than to an error.
 */
function ProNeeded() {
  return (
    <Card className="mb-6 border-brand-200 dark:border-brand-900" data-testid="schedule-pro-needed">
      <CardContent className="flex flex-col gap-3 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <Crown aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-500" />
          <div className="grid gap-1 text-sm">
            <p className="font-medium">Scheduling meetings is part of Pro</p>
            <p className="text-slate-600 dark:text-slate-400">
              Joining anyone&apos;s meeting stays free. Pro (${PRO_PLAN.priceLabel}/{PRO_PLAN.interval}) lets
              you host, schedule with invitations, and covers your guests&apos; time.
            </p>
          </div>
        </div>
        <Button asChild variant="gradient" className="shrink-0">
          <Link to="/subscribe?reason=host">Get Pro to host</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** Schedule a Meeting (`/schedule`), and its edit mode (`?edit={meetingId}`), spec §2. */
export function SchedulePage() {
  const { user, isLoading } = useUser();
  const status = useSubscriptionStatus(user?.email ?? null);
  const withoutPro = status.data ? !status.data.isActive : false;
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const meeting = useMeetingForEdit(user && editId ? editId : null);

  if (isLoading) {
    return (
      <Page title={editId ? 'Edit Meeting' : 'Schedule a Meeting'}>
        <FormSkeleton />
      </Page>
    );
  }
  if (!user) {
    return <RequireSignIn title="Login Required" message="Please log in to schedule meetings." offerLogIn />;
  }

  const back = (
    <Button asChild variant="ghost">
      <Link to="/meetings">
        <ArrowLeft /> My Meetings
      </Link>
    </Button>
  );

  if (editId) {
    if (meeting.isLoading) {
      return (
        <Page title="Edit Meeting" actions={back}>
          <FormSkeleton />
        </Page>
      );
    }
    if (meeting.error || !meeting.data) {
      const err = meeting.error;
      const message =
        err instanceof ApiError && err.status === 403
          ? 'Only the host of this meeting can edit it.'
          : err instanceof ApiError && err.status === 404
            ? 'No meeting of yours has this ID. It may have been deleted, or it belongs to another account.'
            : err instanceof ApiError && err.status === 400
              ? 'This is not a valid meeting ID.'
              : 'The meeting could not be loaded. Please try again.';
      return (
        <Page title="Edit Meeting" actions={back}>
          <Card>
            <CardContent className="p-6" role="alert">
              {message}
            </CardContent>
          </Card>
        </Page>
      );
    }
    return (
      <Page title="Edit Meeting" description={`Meeting ID ${meeting.data.meetingId}`} actions={back}>
        <ScheduleForm
          key={meeting.data.meetingId}
          editing={meeting.data}
          initial={formFromMeeting(meeting.data)}
        />
      </Page>
    );
  }

  return (
    <Page
      title="Schedule a Meeting"
      description="Pick a time, set the options, and we e-mail your invitees a calendar invitation."
      actions={back}
    >
      {withoutPro ? <ProNeeded /> : null}
      <ScheduleForm initial={newForm(user.email)} />
    </Page>
  );
}
