import type { BackgroundItem } from '@parley/protocol';
import { BACKGROUND_CATEGORIES } from '@parley/protocol/constants';
import { Check, Crown, ImagePlus, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useCustomBackgrounds, useDeleteBackground, useUploadBackground } from './api';
import { CATEGORY_LABELS, inCategory, type Category } from './effect';

/** Placeholder tiles while the catalogue loads (spec §2). */
const PLACEHOLDERS = 8;

const tile =
  'group relative overflow-hidden rounded-xl border-2 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

function Thumb({ item, selected, onPick }: { item: BackgroundItem; selected: boolean; onPick: () => void }) {
  return (
    <button
      type="button"
      onClick={onPick}
      aria-pressed={selected}
      aria-label={`${item.name}${item.isPremium ? ' (Pro)' : ''}`}
      data-testid="background-tile"
      className={cn(tile, selected ? 'border-brand-500' : 'border-transparent hover:border-slate-300')}
    >
      <img src={item.thumbnailUrl} alt="" loading="lazy" className="aspect-video w-full object-cover" />
      <span className="block truncate px-2 py-1 text-xs font-medium">{item.name}</span>
      {item.isPremium ? (
        <span
          className="absolute right-1.5 top-1.5 grid size-6 place-items-center rounded-full bg-gradient-to-r from-amber-400 to-orange-500 text-white shadow"
          title="Premium (Pro)"
          data-testid="premium-mark"
        >
          <Crown className="size-3.5" />
        </span>
      ) : null}
      {selected ? (
        <span className="absolute left-1.5 top-1.5 grid size-6 place-items-center rounded-full bg-brand-600 text-white">
          <Check className="size-3.5" />
        </span>
      ) : null}
    </button>
  );
}

/** A Pro user's own pictures: upload (type checked by the server), pick, delete. */
function CustomSection({
  isPro,
  selectedUrl,
  onPick,
}: {
  isPro: boolean;
  selectedUrl: string | null;
  onPick: (url: string) => void;
}) {
  const list = useCustomBackgrounds(isPro);
  const upload = useUploadBackground();
  const remove = useDeleteBackground();
  const input = useRef<HTMLInputElement>(null);
  if (!isPro) {
    return (
      <p className="mt-4 flex flex-wrap items-center gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
        <Crown className="size-4" /> Upload your own pictures with Pro.
        <Link to="/subscribe" className="font-semibold underline">
          Upgrade to Pro
        </Link>
      </p>
    );
  }
  return (
    <section className="mt-4" aria-label="Your pictures">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Your pictures</h3>
        <Button
          size="sm"
          variant="secondary"
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          <ImagePlus /> {upload.isPending ? 'Uploading...' : 'Upload picture'}
        </Button>
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          className="sr-only"
          aria-label="Upload a background picture"
          data-testid="custom-upload"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file, { onSuccess: (created) => onPick(created.url) });
          }}
        />
      </div>
      {list.data && list.data.length > 0 ? (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {list.data.map((c) => (
            <div key={c.id} className="relative">
              <button
                type="button"
                onClick={() => onPick(c.url)}
                aria-pressed={selectedUrl === c.url}
                aria-label="Your picture"
                className={cn(
                  tile,
                  'w-full',
                  selectedUrl === c.url ? 'border-brand-500' : 'border-transparent',
                )}
              >
                <img src={c.url} alt="" className="aspect-video w-full object-cover" />
              </button>
              <button
                type="button"
                aria-label="Delete this picture"
                onClick={() => remove.mutate(c.id)}
                className="absolute right-1.5 top-1.5 grid size-7 place-items-center rounded-full bg-slate-900/70 text-white hover:bg-red-600"
              >
                <Trash2 className="size-3.5" />
              </button>
            </div>
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          JPEG, PNG, WebP or GIF up to 5 MB. Pictures are resized on the server.
        </p>
      )}
    </section>
  );
}

/** 'Virtual Backgrounds' (spec §2): category tabs, thumbnails with names, premium marks. */
export function VirtualBackgroundsDialog({
  open,
  onOpenChange,
  catalogue,
  loading,
  selectedId,
  selectedCustomUrl,
  signedIn,
  isPro,
  onPick,
  onPickCustom,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  catalogue: BackgroundItem[] | undefined;
  loading: boolean;
  selectedId: string | null;
  selectedCustomUrl: string | null;
  signedIn: boolean;
  isPro: boolean;
  onPick: (item: BackgroundItem) => void;
  onPickCustom: (url: string) => void;
}) {
  const [category, setCategory] = useState<Category>('all');
  const list = inCategory(catalogue ?? [], category);
  const tab =
    'rounded-lg px-3 py-1.5 text-sm font-medium text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-300 dark:data-[state=active]:bg-slate-800 dark:data-[state=active]:text-white';
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Virtual Backgrounds" className="max-w-2xl">
      <Tabs.Root value={category} onValueChange={(v) => setCategory(v as Category)}>
        <Tabs.List
          className="mb-4 inline-flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-950"
          aria-label="Background categories"
        >
          {BACKGROUND_CATEGORIES.map((c) => (
            <Tabs.Trigger key={c} value={c} className={tab}>
              {CATEGORY_LABELS[c]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 md:grid-cols-4" data-testid="background-grid">
        {loading
          ? Array.from({ length: PLACEHOLDERS }, (_, i) => (
              <div key={i} data-testid="background-placeholder">
                <Skeleton className="aspect-video w-full" />
                <Skeleton className="mt-1 h-3 w-2/3" />
              </div>
            ))
          : list.map((item) => (
              <Thumb
                key={item.id}
                item={item}
                selected={item.id === selectedId}
                onPick={() => onPick(item)}
              />
            ))}
      </div>
      {signedIn ? (
        <CustomSection isPro={isPro} selectedUrl={selectedCustomUrl} onPick={onPickCustom} />
      ) : null}
    </Dialog>
  );
}
