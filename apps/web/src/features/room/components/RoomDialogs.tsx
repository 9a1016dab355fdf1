import { PRO_PLAN } from '@parley/protocol/constants';
import { Check, LogOut, PhoneOff } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ComingSoonBadge } from '@/components/ui/coming-soon';
import { Dialog } from '@/components/ui/dialog';
import { AiInDevelopmentNote } from '@/features/subscription/pro-features';
import { useLeaveDialog } from '../controls/leave';
import { useRoomDialog } from '../controls/panel-controls';
import { useIsHost, useRoomContext, useRoomState } from '../room-context';
import { SettingsDialog } from './SettingsDialog';

const UPGRADE_FEATURES = [
  { text: 'Live transcription', feature: 'transcription' },
  { text: 'AI translation', feature: 'translation' },
  { text: 'Meeting summaries with action items', feature: 'summaries' },
] as const;

/**
 * 'Upgrade to Pro for AI Features' (spec §2): opens whenever a feature needs a subscription. The
 * features not built yet say so (FEATURE_AVAILABILITY), so nobody upgrades believing they work.
 */
export function UpgradeDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Upgrade to Pro for AI Features">
      <ul className="grid gap-2 text-sm">
        {UPGRADE_FEATURES.map(({ text, feature }) => (
          <li key={text} className="flex flex-wrap items-center gap-2">
            <Check className="size-4 text-emerald-500" /> {text} <ComingSoonBadge feature={feature} />
          </li>
        ))}
      </ul>
      <AiInDevelopmentNote className="mt-3 text-slate-600 dark:text-slate-400" />
      <p className="mt-4 text-2xl font-bold">
        ${PRO_PLAN.priceLabel}/{PRO_PLAN.interval}
      </p>
      <p className="text-sm text-slate-500 dark:text-slate-400">Cancel anytime</p>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Maybe Later
        </Button>
        <Button asChild variant="gradient">
          <Link to="/subscribe">Upgrade Now</Link>
        </Button>
      </div>
    </Dialog>
  );
}

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: 'M', what: 'Mute or unmute your microphone' },
  { keys: 'V', what: 'Turn your camera on or off' },
  { keys: 'S', what: 'Start or stop sharing your screen' },
  { keys: 'C', what: 'Open or close the chat' },
  { keys: 'P', what: 'Open or close the people list' },
  { keys: 'T', what: 'Open or close the meeting tools' },
  { keys: 'Esc', what: 'Close the side panel' },
  { keys: '?', what: 'Show these shortcuts' },
];

export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-100 px-2 py-0.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-800">
                {s.keys}
              </kbd>
            </dt>
            <dd>{s.what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

/** The host's Leave: leave (the meeting goes on) or End meeting for everyone. */
export function LeaveDialog() {
  const { open, onOpenChange, leave, endForEveryone, ending } = useLeaveDialog();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Leave the meeting?"
      description="The meeting goes on without you, or you can end it for everyone."
    >
      {/* Wraps rather than run out of the dialog (in a narrower one Cancel was cut off). */}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="secondary" onClick={leave}>
          <LogOut /> Leave meeting
        </Button>
        <Button variant="destructive" onClick={endForEveryone} disabled={ending}>
          <PhoneOff /> End meeting for everyone
        </Button>
      </div>
    </Dialog>
  );
}

/** The joined room's dialogs, each opened through the layout (buttons, shortcuts, AI toggle). */
export function RoomDialogs() {
  const { session } = useRoomContext();
  const name = useRoomState().self?.name ?? '';
  const isHost = useIsHost();
  const settings = useRoomDialog('settings');
  const shortcuts = useRoomDialog('shortcuts');
  const upgrade = useRoomDialog('upgrade');
  const [joinedAt] = useState(() => Date.now());
  return (
    <>
      <SettingsDialog
        open={settings.open}
        onOpenChange={settings.onOpenChange}
        media={session.media}
        name={name}
        meetingId={session.meetingId}
        isHost={isHost}
        joinedAt={joinedAt}
      />
      <ShortcutsDialog open={shortcuts.open} onOpenChange={shortcuts.onOpenChange} />
      <UpgradeDialog open={upgrade.open} onOpenChange={upgrade.onOpenChange} />
      {isHost ? <LeaveDialog /> : null}
    </>
  );
}
