import { CalendarPlus, CalendarX2, Radio, History } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { RequireSignIn } from '@/features/auth/RequireSignIn';
import { useUser } from '@/features/auth/api';
import { useDeleteMeeting, useMyMeetings, useMyRecordings } from './api';
import { MeetingCard } from './MeetingCard';
import { badgeOf, groupMeetings, type MeetingTab } from './meeting-list';

const TABS: { value: MeetingTab; label: string; empty: string; icon: typeof CalendarX2 }[] = [
  { value: 'upcoming', label: 'Upcoming', empty: 'No upcoming meetings', icon: CalendarX2 },
  { value: 'live', label: 'Live Now', empty: 'No meetings are live right now', icon: Radio },
  { value: 'past', label: 'Past', empty: 'No past meetings', icon: History },
];

/** The current time, refreshed every 30 s so meetings move between tabs on their own. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

function LoadingCards() {
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-busy="true" aria-label="Loading meetings">
      {Array.from({ length: 4 }, (_, i) => (
        <Card key={i}>
          <CardContent className="grid gap-3 p-5">
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-8 w-full" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

/** My Meetings (`/meetings`), spec §2 and §4. */
export function MyMeetingsPage() {
  const { user, isLoading: userLoading } = useUser();
  const meetings = useMyMeetings(!!user);
  const recordings = useMyRecordings(!!user);
  const remove = useDeleteMeeting();
  const now = useNow();
  const [tab, setTab] = useState<MeetingTab>('upcoming');

  if (!userLoading && !user) {
    return (
      <RequireSignIn
        title="Login Required"
        message="Please log in to see your meetings."
        pageTitle="My Meetings"
        offerLogIn
      />
    );
  }

  const groups = groupMeetings(meetings.data ?? [], now);
  const recordingsOf = (meetingId: string) =>
    (recordings.data ?? []).filter((r) => r.meetingId === meetingId);
  const loading = userLoading || meetings.isLoading;

  const onDelete = (meetingId: string) =>
    remove.mutate(meetingId, {
      onSuccess: () => {
        toast({ title: 'Meeting deleted', variant: 'success' });
        void meetings.refetch();
      },
      onError: () =>
        toast({ title: 'Failed to delete meeting', description: 'Please try again', variant: 'destructive' }),
    });

  return (
    <Page
      title="My Meetings"
      description="Your upcoming, live and past meetings."
      actions={
        <Button asChild variant="gradient">
          <Link to="/schedule">
            <CalendarPlus /> Schedule Meeting
          </Link>
        </Button>
      }
    >
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as MeetingTab)}>
        <Tabs.List
          aria-label="Meetings"
          className="mb-6 inline-flex w-full gap-1 rounded-xl bg-slate-100 p-1 sm:w-auto dark:bg-slate-800"
        >
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.value}
              value={t.value}
              className="flex-1 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium text-slate-600 transition-colors data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none sm:px-4 dark:text-slate-300 dark:data-[state=active]:bg-slate-950 dark:data-[state=active]:text-white"
            >
              {t.label}
              {!loading ? (
                <span className="ml-1.5 text-xs text-slate-500">{groups[t.value].length}</span>
              ) : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Content key={t.value} value={t.value} className="focus-visible:outline-none">
            {loading ? (
              <LoadingCards />
            ) : meetings.error ? (
              <Card>
                <CardContent className="flex flex-col items-start gap-3 p-6" role="alert">
                  <p>Your meetings could not be loaded.</p>
                  <Button variant="secondary" onClick={() => void meetings.refetch()}>
                    Try again
                  </Button>
                </CardContent>
              </Card>
            ) : groups[t.value].length === 0 ? (
              <Card>
                <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
                  <t.icon className="size-10 text-slate-400" />
                  <p className="font-medium">{t.empty}</p>
                  {t.value !== 'past' ? (
                    <Button asChild variant="secondary">
                      <Link to="/schedule">
                        <CalendarPlus /> Schedule Meeting
                      </Link>
                    </Button>
                  ) : null}
                </CardContent>
              </Card>
            ) : (
              <div className="grid gap-4 md:grid-cols-2">
                {groups[t.value].map((m) => (
                  <MeetingCard
                    key={m.meetingId}
                    meeting={m}
                    badge={badgeOf(m, now)}
                    deleting={remove.isPending && remove.variables === m.meetingId}
                    onDelete={() => onDelete(m.meetingId)}
                    recordings={recordingsOf(m.meetingId)}
                  />
                ))}
              </div>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Page>
  );
}
