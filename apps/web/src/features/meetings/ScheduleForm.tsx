import type { MeetingWithInvitees, RecurrencePattern, Timezone } from '@parley/protocol';
import {
  DURATION_OPTIONS_MINUTES,
  MAX_PARTICIPANTS,
  RECURRENCE_PATTERNS,
  TIMEZONES,
} from '@parley/protocol/constants';
import {
  MEETING_DESCRIPTION_MAX,
  MEETING_PASSWORD_MAX,
  MEETING_TITLE_MAX,
  utcToZonedLocal,
} from '@parley/protocol/meetings';
import { CalendarCheck } from 'lucide-react';
import { useState, type FormEvent, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label, Textarea } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toast-store';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useScheduleMeeting, useUpdateMeeting } from './api';
import { InviteeRows } from './InviteeRows';
import {
  inviteesToSend,
  parseMaxParticipants,
  toBody,
  validateForm,
  type ScheduleFormState,
} from './schedule-form';

export { formFromMeeting, newForm } from './schedule-form';

const PATTERN_LABELS: Record<RecurrencePattern, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100',
        className,
      )}
      {...props}
    />
  );
}

function Field({
  label,
  htmlFor,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

function SwitchRow({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="flex items-center justify-between gap-4">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p className="text-xs text-slate-500">{hint}</p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} />
    </div>
  );
}

function failureToast(err: unknown, navigate: (to: string) => void) {
  if (err instanceof ApiError && err.requiresSubscription) {
    // Hosting needs Pro (spec §1): not the person's mistake, so no red toast and no timed
    // redirect (issue 37 item 4). The subscribe page says why they are there and what stays free.
    navigate('/subscribe?reason=host');
    return;
  }
  toast({
    title: 'Failed to schedule meeting',
    description: (err instanceof ApiError && err.serverMessage) || 'Please try again',
    variant: 'destructive',
  });
}

/** The schedule form of spec §2; `editing` switches it to saving an existing meeting. */
export function ScheduleForm({
  initial,
  editing,
}: {
  initial: ScheduleFormState;
  editing?: MeetingWithInvitees;
}) {
  const [form, setForm] = useState(initial);
  const accountEmail = initial.hostEmail.trim() !== '';
  const set = <K extends keyof ScheduleFormState>(key: K, value: ScheduleFormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const navigate = useNavigate();
  const schedule = useScheduleMeeting();
  const update = useUpdateMeeting();
  const busy = schedule.isPending || update.isPending;
  const [minDate] = useState(() => `${utcToZonedLocal(new Date(), form.timezone).slice(0, 10)}T00:00`);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = validateForm(form, new Date(), {
      hasPassword: editing?.requiresPassword,
      originalWhen: editing ? initial.when : undefined,
    });
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    const body = toBody(form);
    const invitees = inviteesToSend(form.invitees);

    if (editing) {
      update.mutate(
        { meetingId: editing.meetingId, body: { ...body, invitees } },
        {
          onSuccess: (saved) => {
            toast({
              title: 'Meeting updated',
              description:
                saved.invitations.sent > 0
                  ? `Updated invitations sent to ${saved.invitations.sent} ${saved.invitations.sent === 1 ? 'person' : 'people'}`
                  : 'Your changes were saved',
              variant: 'success',
            });
            navigate('/meetings');
          },
          onError: (err) => failureToast(err, navigate),
        },
      );
      return;
    }

    schedule.mutate(
      { body, invitees },
      {
        onSuccess: ({ invitations, invitationError }) => {
          if (invitationError) {
            toast({
              title: 'Invitations not sent',
              description:
                (invitationError instanceof ApiError && invitationError.serverMessage) ||
                'The meeting was scheduled, but the invitations could not be sent',
              variant: 'destructive',
            });
          } else {
            const sent = invitations?.sent ?? 0;
            toast({
              title: 'Meeting scheduled',
              description:
                sent > 0
                  ? `Invitations sent to ${sent} ${sent === 1 ? 'person' : 'people'}`
                  : 'Find it under My Meetings',
              variant: 'success',
            });
          }
          navigate('/meetings');
        },
        onError: (err) => failureToast(err, navigate),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 lg:grid-cols-[1.4fr_1fr]">
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Field label="Title" htmlFor="title">
              <Input
                id="title"
                value={form.title}
                maxLength={MEETING_TITLE_MAX}
                placeholder="Weekly team sync"
                onChange={(e) => set('title', e.target.value)}
              />
            </Field>
            <Field label="Description" htmlFor="description">
              <Textarea
                id="description"
                value={form.description}
                maxLength={MEETING_DESCRIPTION_MAX}
                placeholder="Agenda, links, anything invitees should know"
                onChange={(e) => set('description', e.target.value)}
              />
            </Field>
            {/* The organizer is the signed-in account: the server takes its email and ignores this
                field, so it only shows it (editable only when the account has no email to show). */}
            <Field
              label="Host email"
              htmlFor="hostEmail"
              hint={accountEmail ? "Your account's email: you are the meeting's organizer." : undefined}
            >
              <Input
                id="hostEmail"
                type="email"
                value={form.hostEmail}
                readOnly={accountEmail}
                aria-readonly={accountEmail || undefined}
                className={accountEmail ? 'bg-slate-50 text-slate-600' : undefined}
                onChange={(e) => set('hostEmail', e.target.value)}
              />
            </Field>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>When</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="sm:col-span-2">
              <Field
                label="Date and time"
                htmlFor="when"
                hint={`In the meeting's timezone (${form.timezone}).`}
              >
                <Input
                  id="when"
                  type="datetime-local"
                  min={minDate}
                  value={form.when}
                  onChange={(e) => set('when', e.target.value)}
                />
              </Field>
            </div>
            <Field label="Duration" htmlFor="duration">
              <Select
                id="duration"
                value={form.duration}
                onChange={(e) => set('duration', Number(e.target.value))}
              >
                {DURATION_OPTIONS_MINUTES.map((d) => (
                  <option key={d} value={d}>
                    {d} minutes
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Timezone" htmlFor="timezone">
              <Select
                id="timezone"
                value={form.timezone}
                onChange={(e) => set('timezone', e.target.value as Timezone)}
              >
                {TIMEZONES.map((tz) => (
                  <option key={tz} value={tz}>
                    {tz}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="grid gap-3 sm:col-span-2">
              <SwitchRow
                id="isRecurring"
                label="Recurring meeting"
                hint="Repeat at the same time."
                checked={form.isRecurring}
                onChange={(v) => set('isRecurring', v)}
              />
              {form.isRecurring ? (
                <Field label="Repeats" htmlFor="recurrencePattern">
                  <Select
                    id="recurrencePattern"
                    value={form.recurrencePattern}
                    onChange={(e) => set('recurrencePattern', e.target.value as RecurrencePattern)}
                  >
                    {RECURRENCE_PATTERNS.map((p) => (
                      <option key={p} value={p}>
                        {PATTERN_LABELS[p]}
                      </option>
                    ))}
                  </Select>
                </Field>
              ) : null}
            </div>
          </CardContent>
        </Card>
      </div>
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Options</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Field
              label="Maximum participants"
              htmlFor="maxParticipants"
              hint={`${MAX_PARTICIPANTS.min} to ${MAX_PARTICIPANTS.max}; empty means ${MAX_PARTICIPANTS.default}.`}
            >
              <Input
                id="maxParticipants"
                type="number"
                inputMode="numeric"
                min={MAX_PARTICIPANTS.min}
                max={MAX_PARTICIPANTS.max}
                value={form.maxParticipants}
                onChange={(e) => set('maxParticipants', e.target.value)}
                onBlur={(e) => set('maxParticipants', String(parseMaxParticipants(e.target.value)))}
              />
            </Field>
            <SwitchRow
              id="requiresPassword"
              label="Require a password"
              hint="Guests enter it to join."
              checked={form.requiresPassword}
              onChange={(v) => set('requiresPassword', v)}
            />
            {form.requiresPassword ? (
              <Field
                label="Password"
                htmlFor="password"
                hint={editing?.requiresPassword ? 'Leave empty to keep the current password.' : undefined}
              >
                <Input
                  id="password"
                  type="password"
                  autoComplete="new-password"
                  maxLength={MEETING_PASSWORD_MAX}
                  value={form.password}
                  onChange={(e) => set('password', e.target.value)}
                />
              </Field>
            ) : null}
            <SwitchRow
              id="waitingRoom"
              label="Waiting room"
              hint="You let each guest in."
              checked={form.waitingRoom}
              onChange={(v) => set('waitingRoom', v)}
            />
            <SwitchRow
              id="allowRecording"
              label="Allow recording"
              hint="The host may record the meeting; everyone sees when it is recorded."
              checked={form.allowRecording}
              onChange={(v) => set('allowRecording', v)}
            />
          </CardContent>
        </Card>
        <Card>
          <CardContent className="pt-6">
            <InviteeRows rows={form.invitees} onChange={(rows) => set('invitees', rows)} />
            {editing?.invitationFailures?.length ? (
              <p
                role="alert"
                className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
              >
                These invitations could not be sent:{' '}
                {editing.invitationFailures.map((f) => f.email).join(', ')}. Check the addresses, then save to
                send them again.
              </p>
            ) : null}
          </CardContent>
        </Card>
        <Button type="submit" size="lg" variant="gradient" disabled={busy}>
          <CalendarCheck />
          {editing ? (busy ? 'Saving...' : 'Save Changes') : busy ? 'Scheduling...' : 'Schedule Meeting'}
        </Button>
      </div>
    </form>
  );
}
