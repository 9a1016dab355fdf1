import { DEFAULT_SETTINGS_LANGUAGE, RETENTION_DAYS, SETTINGS_LANGUAGES } from '@parley/protocol/constants';
import { Bell, Camera, Globe, Palette, Shield } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { SavedBackgroundPanel } from '@/features/backgrounds/SavedBackgroundPanel';
import { isDarkPreferred, setDarkMode } from '@/lib/theme';

function SettingRow({
  label,
  hint,
  children,
  htmlFor,
}: {
  label: string;
  hint: string;
  children: ReactNode;
  htmlFor: string;
}) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <div>
        <Label htmlFor={htmlFor}>{label}</Label>
        <p className="text-sm text-slate-500 dark:text-slate-400">{hint}</p>
      </div>
      {children}
    </div>
  );
}

function SectionTitle({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <CardTitle className="flex items-center gap-2">
      {icon} {children}
    </CardTitle>
  );
}

/** Notifications (spec §2): local toggles only, never saved. */
export function NotificationsCard() {
  const id = useId();
  const [push, setPush] = useState(true);
  const [email, setEmail] = useState(false);
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={<Bell className="size-5 text-brand-600" />}>Notifications</SectionTitle>
        <CardDescription>How Parley keeps you informed.</CardDescription>
      </CardHeader>
      <CardContent className="divide-y divide-slate-100 dark:divide-slate-800">
        <SettingRow
          label="Push notifications"
          hint="Meeting reminders in this browser."
          htmlFor={`${id}-push`}
        >
          <Switch id={`${id}-push`} checked={push} onCheckedChange={setPush} />
        </SettingRow>
        <SettingRow label="Email updates" hint="Product news and tips by email." htmlFor={`${id}-email`}>
          <Switch id={`${id}-email`} checked={email} onCheckedChange={setEmail} />
        </SettingRow>
      </CardContent>
    </Card>
  );
}

/** Appearance (spec §2): dark mode switches the theme at once, remembered in this browser only. */
export function AppearanceCard() {
  const id = useId();
  const [dark, setDark] = useState(isDarkPreferred);
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={<Palette className="size-5 text-brand-600" />}>Appearance</SectionTitle>
        <CardDescription>Choose how Parley looks on this device.</CardDescription>
      </CardHeader>
      <CardContent>
        <SettingRow label="Dark mode" hint="Use a dark theme." htmlFor={`${id}-dark`}>
          <Switch
            id={`${id}-dark`}
            checked={dark}
            onCheckedChange={(on) => {
              setDark(on);
              setDarkMode(on);
            }}
          />
        </SettingRow>
      </CardContent>
    </Card>
  );
}

/**
 * Camera & Background Effects (spec §2): the background panel, saved to the account's
 * preferences (the initial state of the demo page and of meetings), and the camera preview.
 */
export function CameraEffectsCard() {
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={<Camera className="size-5 text-brand-600" />}>
          Camera &amp; Background Effects
        </SectionTitle>
        <CardDescription>
          Blur your surroundings or pick a virtual background. Your meetings start with it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <SavedBackgroundPanel />
        <div>
          <Button asChild variant="secondary">
            <Link to="/background-demo">
              <Camera /> Open Camera Preview &amp; Test Effects
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** Language & Region (spec §2): a local choice, default English. */
export function LanguageCard() {
  const id = useId();
  const [language, setLanguage] = useState<string>(DEFAULT_SETTINGS_LANGUAGE);
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={<Globe className="size-5 text-brand-600" />}>Language &amp; Region</SectionTitle>
        <CardDescription>The language Parley uses for you.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-language`}>Default language</Label>
          <select
            id={`${id}-language`}
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 sm:w-64 dark:border-slate-700 dark:bg-slate-950"
          >
            {SETTINGS_LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
      </CardContent>
    </Card>
  );
}

export function PrivacyCard() {
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={<Shield className="size-5 text-brand-600" />}>
          Privacy &amp; Security
        </SectionTitle>
        <CardDescription>How long Parley keeps your meeting data.</CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Recordings and transcripts are automatically deleted after {RETENTION_DAYS} days unless saved.
        </p>
      </CardContent>
    </Card>
  );
}
