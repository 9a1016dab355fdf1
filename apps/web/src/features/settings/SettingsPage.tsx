import type { User } from '@parley/protocol';
import { PROFILE_NAME_MAX } from '@parley/protocol/constants';
import { ArrowLeft, Save, UserRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/input';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { RequireSignIn } from '@/features/auth/RequireSignIn';
import { useUpdateProfile, useUser } from '@/features/auth/api';
import { ApiError } from '@/lib/api';
import {
  AppearanceCard,
  CameraEffectsCard,
  LanguageCard,
  NotificationsCard,
  PrivacyCard,
} from './PreferenceCards';
import { SubscriptionCard } from './SubscriptionCard';

function SettingsForm({ user }: { user: User }) {
  const id = useId();
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const update = useUpdateProfile();

  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      { firstName, lastName },
      {
        onSuccess: (saved) => {
          setFirstName(saved.firstName ?? '');
          setLastName(saved.lastName ?? '');
          toast({
            title: 'Settings Saved',
            description: 'Your profile has been updated successfully.',
            variant: 'success',
          });
        },
        onError: (err) => {
          toast({
            title: 'Error',
            description:
              err instanceof ApiError && err.serverMessage
                ? err.serverMessage
                : 'Failed to save settings. Please try again.',
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <Page className="max-w-3xl">
      <Button asChild variant="ghost" size="sm" className="-ml-3 mb-4">
        <Link to="/">
          <ArrowLeft /> Back to Home
        </Link>
      </Button>
      <div className="mb-8">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Settings</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Manage your profile, subscription and preferences.
        </p>
      </div>
      <form onSubmit={save} className="flex flex-col gap-6">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <UserRound className="size-5 text-brand-600" /> Profile Settings
            </CardTitle>
            <CardDescription>Your name as others see it in meetings.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-first`}>First name</Label>
              <Input
                id={`${id}-first`}
                value={firstName}
                maxLength={PROFILE_NAME_MAX}
                autoComplete="given-name"
                onChange={(e) => setFirstName(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-last`}>Last name</Label>
              <Input
                id={`${id}-last`}
                value={lastName}
                maxLength={PROFILE_NAME_MAX}
                autoComplete="family-name"
                onChange={(e) => setLastName(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-email`}>Email</Label>
              <Input id={`${id}-email`} value={user.email} disabled aria-describedby={`${id}-email-note`} />
              <p id={`${id}-email-note`} className="text-xs text-slate-500 dark:text-slate-400">
                Email cannot be changed
              </p>
            </div>
          </CardContent>
        </Card>

        <SubscriptionCard email={user.email} />
        <NotificationsCard />
        <AppearanceCard />
        <CameraEffectsCard />
        <LanguageCard />
        <PrivacyCard />

        <div className="flex justify-end">
          <Button type="submit" size="lg" disabled={update.isPending} className="w-full sm:w-auto">
            {update.isPending ? <Spinner className="text-white" label="Saving" /> : <Save />}
            {update.isPending ? 'Saving...' : 'Save Settings'}
          </Button>
        </div>
      </form>
    </Page>
  );
}

/** /settings (spec §2): Access Denied when signed out, else every settings card. */
export function SettingsPage() {
  const { user, isLoading } = useUser();
  if (isLoading) {
    return (
      <main className="flex flex-1 items-center justify-center py-16">
        <Spinner className="size-8" />
      </main>
    );
  }
  if (!user) return <RequireSignIn title="Access Denied" message="Please log in to access settings." />;
  return <SettingsForm key={user.id} user={user} />;
}
