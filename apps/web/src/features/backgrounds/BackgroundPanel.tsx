import type { BackgroundItem } from '@parley/protocol';
import { BLUR_INTENSITY } from '@parley/protocol/constants';
import { Ban, Droplets, Image as ImageIcon } from 'lucide-react';
import { Slider } from 'radix-ui';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { useBackgrounds } from './api';
import { effectLabel, type BackgroundChoice } from './effect';
import { VirtualBackgroundsDialog } from './VirtualBackgroundsDialog';

function EffectButton({
  active,
  icon,
  children,
  onClick,
  disabled,
}: {
  active: boolean;
  icon: ReactNode;
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'flex flex-1 flex-col items-center gap-1 rounded-xl border-2 px-3 py-3 text-sm font-medium transition-colors disabled:opacity-50 [&_svg]:size-5',
        active
          ? 'border-brand-500 bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-100'
          : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600',
      )}
    >
      {icon}
      {children}
    </button>
  );
}

/**
 * The background effects panel (spec §2, §4): None, Blur and Virtual; Blur shows the 'Subtle'
 * to 'Strong' slider; Virtual opens the 'Virtual Backgrounds' dialog; a badge names the current
 * effect. None and Blur apply at once; a picture applies when picked (and closes the dialog);
 * moving the slider while Blur is on re-applies it (`onChange` on release, `onPreview` live).
 */
export function BackgroundPanel({
  value,
  onChange,
  onPreview,
  signedIn,
  isPro,
  disabled,
  extra,
}: {
  value: BackgroundChoice;
  onChange: (choice: BackgroundChoice) => void;
  onPreview?: (choice: BackgroundChoice) => void;
  signedIn: boolean;
  isPro: boolean;
  disabled?: boolean;
  /** Shown beside the effect badge (e.g. the processor's state). */
  extra?: ReactNode;
}) {
  const id = useId();
  const [dialog, setDialog] = useState(false);
  const [sliding, setSliding] = useState<number | null>(null);
  const catalogue = useBackgrounds();
  const intensity = sliding ?? value.blurIntensity;
  const pick = (item: BackgroundItem) => {
    setDialog(false);
    onChange({ ...value, type: 'virtual', backgroundId: item.id });
  };
  return (
    <div className="grid gap-4" data-testid="background-panel">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600 dark:text-slate-300">Current effect</span>
        <Badge variant={value.type === 'none' ? 'default' : 'brand'} data-testid="effect-badge">
          {effectLabel(value, catalogue.data)}
        </Badge>
        {extra}
      </div>
      <div className="flex gap-2" role="group" aria-label="Background effect">
        <EffectButton
          active={value.type === 'none'}
          icon={<Ban />}
          disabled={disabled}
          onClick={() => onChange({ ...value, type: 'none' })}
        >
          None
        </EffectButton>
        <EffectButton
          active={value.type === 'blur'}
          icon={<Droplets />}
          disabled={disabled}
          onClick={() => onChange({ ...value, type: 'blur' })}
        >
          Blur
        </EffectButton>
        <EffectButton
          active={value.type === 'virtual' || value.type === 'custom'}
          icon={<ImageIcon />}
          disabled={disabled}
          onClick={() => setDialog(true)}
        >
          Virtual
        </EffectButton>
      </div>
      {value.type === 'blur' ? (
        <div className="grid gap-2">
          <label id={`${id}-blur`} className="text-sm font-medium">
            Blur intensity <span className="font-normal text-slate-500">({intensity})</span>
          </label>
          <Slider.Root
            aria-labelledby={`${id}-blur`}
            min={BLUR_INTENSITY.min}
            max={BLUR_INTENSITY.max}
            step={BLUR_INTENSITY.step}
            value={[intensity]}
            disabled={disabled}
            onValueChange={([v]) => {
              if (v === undefined) return;
              setSliding(v);
              onPreview?.({ ...value, blurIntensity: v });
            }}
            onValueCommit={([v]) => {
              setSliding(null);
              if (v !== undefined && v !== value.blurIntensity) onChange({ ...value, blurIntensity: v });
            }}
            className="relative flex h-6 w-full touch-none select-none items-center"
          >
            <Slider.Track className="relative h-1.5 grow rounded-full bg-slate-200 dark:bg-slate-700">
              <Slider.Range className="absolute h-full rounded-full bg-brand-600" />
            </Slider.Track>
            <Slider.Thumb
              aria-label="Blur intensity"
              className="block size-5 rounded-full border-2 border-brand-600 bg-white shadow focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            />
          </Slider.Root>
          <div className="flex justify-between text-xs text-slate-500 dark:text-slate-400">
            <span>Subtle</span>
            <span>Strong</span>
          </div>
        </div>
      ) : null}
      <VirtualBackgroundsDialog
        open={dialog}
        onOpenChange={setDialog}
        catalogue={catalogue.data}
        loading={catalogue.isLoading}
        selectedId={value.type === 'virtual' ? value.backgroundId : null}
        selectedCustomUrl={value.type === 'custom' ? value.customBackgroundUrl : null}
        signedIn={signedIn}
        isPro={isPro}
        onPick={pick}
        onPickCustom={(url) => {
          setDialog(false);
          onChange({ ...value, type: 'custom', customBackgroundUrl: url });
        }}
      />
    </div>
  );
}
