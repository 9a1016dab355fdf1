import { AI_FEATURES } from '@parley/protocol/constants';
import { RefreshCw } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ComingSoonBadge } from '@/components/ui/coming-soon';
import { Dialog } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { CoverEveryoneSetting } from '@/features/billing/CoverEveryoneSetting';
import { toast } from '@/components/ui/toast-store';
import { MeetingBackgroundPanel } from '@/features/backgrounds/meeting';
import { cn } from '@/lib/cn';
import { useAudioLevel, useElapsed, useLocalMedia } from '../hooks';
import type { LocalMedia } from '../media/local-media';
import { loadPreferences, savePreferences, type RoomPreferences } from '../preferences';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function DeviceSelect({
  id,
  label,
  devices,
  value,
  empty,
  onChange,
}: {
  id: string;
  label: string;
  devices: MediaDeviceInfo[];
  value: string;
  empty: string;
  onChange: (deviceId: string) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {devices.length === 0 ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          {empty}
        </p>
      ) : (
        <select
          id={id}
          value={devices.some((d) => d.deviceId === value) ? value : ''}
          onChange={(e) => onChange(e.target.value)}
          className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950"
        >
          {devices.some((d) => d.deviceId === value) ? null : <option value="">System default</option>}
          {devices.map((d, i) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || `${label} ${i + 1}`}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

function LevelMeter({ media }: { media: LocalMedia }) {
  const snap = useLocalMedia(media);
  const level = useAudioLevel(media.audioTrack, !snap.isMuted && snap.hasAudio);
  const active = !snap.isMuted && snap.hasAudio;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between">
        <Label>Microphone level</Label>
        <span
          data-testid="mic-level-state"
          className={cn('text-xs font-semibold', active ? 'text-emerald-600' : 'text-red-600')}
        >
          {active ? 'Active' : 'Muted'}
        </span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(level * 100)}
        aria-label="Microphone level"
      >
        <div
          className="h-full bg-emerald-500 transition-[width] duration-100"
          style={{ width: `${Math.min(100, Math.round(level * 160))}%` }}
        />
      </div>
    </div>
  );
}

function AudioVideoTab({ media }: { media: LocalMedia }) {
  const snap = useLocalMedia(media);
  const { devices, selected } = snap;
  const run = (p: Promise<void>, what: string) =>
    p.catch((err: unknown) =>
      toast({
        title: `Could not switch the ${what}`,
        description: (err as Error).message,
        variant: 'destructive',
      }),
    );
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-300">
        <span data-testid="device-counts">
          {plural(devices.audioInputs.length, 'microphone')} ·{' '}
          {plural(devices.audioOutputs.length, 'speaker')} · {plural(devices.videoInputs.length, 'camera')}
        </span>
        <Button size="sm" variant="secondary" onClick={() => void media.refreshDevices()}>
          <RefreshCw /> Refresh Devices
        </Button>
      </div>
      <DeviceSelect
        id="mic-select"
        label="Microphone"
        devices={devices.audioInputs}
        value={selected.audioInput}
        empty="No microphones detected. Please check device permissions."
        onChange={(id) => void run(media.switchMicrophone(id), 'microphone')}
      />
      <DeviceSelect
        id="speaker-select"
        label="Speaker"
        devices={devices.audioOutputs}
        value={selected.audioOutput}
        empty="No speakers detected. Using system default."
        onChange={(id) => media.setSpeaker(id)}
      />
      <DeviceSelect
        id="camera-select"
        label="Camera"
        devices={devices.videoInputs}
        value={selected.videoInput}
        empty="No cameras detected. Please check device permissions."
        onChange={(id) => void run(media.switchCamera(id), 'camera')}
      />
      <LevelMeter media={media} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <span className="text-sm text-slate-600 dark:text-slate-300">{label}</span>
      <span className="text-sm font-medium">{children}</span>
    </div>
  );
}

function AccountTab({
  name,
  meetingId,
  isHost,
  joinedAt,
}: {
  name: string;
  meetingId: string;
  isHost: boolean;
  joinedAt: number | null;
}) {
  const [prefs, setPrefs] = useState<RoomPreferences>(loadPreferences);
  const duration = useElapsed(joinedAt);
  useEffect(() => savePreferences(prefs), [prefs]);
  const sw = (key: keyof RoomPreferences, label: string, note?: ReactNode) => (
    <div className="flex items-center justify-between gap-4 py-2">
      <Label htmlFor={`pref-${key}`} className="flex flex-wrap items-center gap-2">
        {label}
        {note}
      </Label>
      <Switch
        id={`pref-${key}`}
        checked={prefs[key]}
        onCheckedChange={(v) => setPrefs((p) => ({ ...p, [key]: v }))}
      />
    </div>
  );
  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor="account-name">Display name</Label>
        <Input id="account-name" value={name} readOnly disabled />
      </div>
      <div className="divide-y divide-slate-200 dark:divide-slate-800">
        <Row label="Meeting ID">
          <span className="font-mono">{meetingId}</span>
        </Row>
        <Row label="Role">{isHost ? 'Host' : 'Participant'}</Row>
        <Row label="Session duration">{duration}</Row>
      </div>
      {isHost ? <CoverEveryoneSetting meetingId={meetingId} /> : null}
      <div>
        <h4 className="mb-1 text-sm font-semibold">Preferences</h4>
        {sw('joinMuted', 'Join with microphone muted')}
        {sw('joinCameraOff', 'Join with camera off')}
        {sw('aiEnabled', 'AI features', <ComingSoonBadge feature={AI_FEATURES} />)}
      </div>
      <div className="rounded-xl border border-red-300 p-4 dark:border-red-900">
        <h4 className="text-sm font-semibold text-red-600 dark:text-red-400">Danger Zone</h4>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Delete all the data stored for your account.
        </p>
        <Button
          variant="destructive"
          size="sm"
          className="mt-3"
          onClick={() => {
            if (
              window.confirm(
                'Are you sure you want to delete all account data? This action cannot be undone.',
              )
            ) {
              window.alert('Deleting account data is not implemented yet. It will arrive in a later update.');
            }
          }}
        >
          Delete account data
        </Button>
      </div>
    </div>
  );
}

export function SettingsDialog({
  open,
  onOpenChange,
  media,
  name,
  meetingId,
  isHost,
  joinedAt,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  media: LocalMedia;
  name: string;
  meetingId: string;
  isHost: boolean;
  joinedAt: number | null;
}) {
  useEffect(() => {
    if (open) void media.refreshDevices();
  }, [open, media]);
  const tab =
    'rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-300 dark:data-[state=active]:bg-slate-800 dark:data-[state=active]:text-white';
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Settings">
      <Tabs.Root defaultValue="av">
        <Tabs.List
          className="mb-4 inline-flex gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-950"
          aria-label="Settings"
        >
          <Tabs.Trigger value="av" className={tab}>
            Audio &amp; Video
          </Tabs.Trigger>
          <Tabs.Trigger value="background" className={tab}>
            Background
          </Tabs.Trigger>
          <Tabs.Trigger value="account" className={tab}>
            Account
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="av">
          <AudioVideoTab media={media} />
        </Tabs.Content>
        <Tabs.Content value="background">
          <MeetingBackgroundPanel />
        </Tabs.Content>
        <Tabs.Content value="account">
          <AccountTab name={name} meetingId={meetingId} isHost={isHost} joinedAt={joinedAt} />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}
