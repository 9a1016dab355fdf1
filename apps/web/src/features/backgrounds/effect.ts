import type {
  BackgroundItem,
  BackgroundPreferences,
  BackgroundPreferencesUpdate,
  BackgroundType,
  ParticipantBackgroundInput,
} from '@parley/protocol';
import { BLUR_INTENSITY } from '@parley/protocol/constants';
import type { ProcessorEffect } from './processor/background-processor';

/**
 * A background choice as the panel, the preferences and the meeting call all see it (spec §3, §4),
 * and the pure rules that turn it into requests and into what the processor draws.
 */
export interface BackgroundChoice {
  type: BackgroundType;
  blurIntensity: number;
  /** The catalogue id for `virtual` (kept while another type is on, for next time). */
  backgroundId: string | null;
  /** One of the user's uploads for `custom`. */
  customBackgroundUrl: string | null;
}

export const NO_EFFECT: BackgroundChoice = {
  type: 'none',
  blurIntensity: BLUR_INTENSITY.default,
  backgroundId: null,
  customBackgroundUrl: null,
};

export type Category = 'all' | BackgroundItem['category'];

export const CATEGORY_LABELS: Record<Category, string> = {
  all: 'All',
  office: 'Office',
  nature: 'Nature',
  abstract: 'Abstract',
};

/** The initial state (spec §4): saved preferences, else None at intensity 5. */
export function choiceFromPreferences(prefs: BackgroundPreferences | null | undefined): BackgroundChoice {
  if (!prefs) return NO_EFFECT;
  return {
    type: prefs.backgroundType,
    blurIntensity: clampIntensity(prefs.blurIntensity),
    backgroundId: prefs.selectedBackgroundId,
    customBackgroundUrl: prefs.customBackgroundUrl,
  };
}

export function clampIntensity(n: number): number {
  if (!Number.isFinite(n)) return BLUR_INTENSITY.default;
  return Math.min(BLUR_INTENSITY.max, Math.max(BLUR_INTENSITY.min, Math.round(n)));
}

/** PUT /api/backgrounds/preferences: the type plus what it needs (spec §7). */
export function preferencesUpdate(choice: BackgroundChoice, userId?: string): BackgroundPreferencesUpdate {
  return {
    ...(userId ? { userId } : {}),
    backgroundType: choice.type,
    blurIntensity: choice.blurIntensity,
    ...(choice.type === 'virtual' ? { backgroundId: choice.backgroundId } : {}),
    ...(choice.type === 'custom' ? { customBackgroundUrl: choice.customBackgroundUrl } : {}),
  };
}

/** POST …/participants/{pid}/background (spec §7). */
export function meetingBackgroundBody(choice: BackgroundChoice): ParticipantBackgroundInput {
  return {
    backgroundType: choice.type,
    backgroundId: choice.type === 'virtual' ? choice.backgroundId : null,
    blurIntensity: choice.blurIntensity,
    customBackgroundUrl: choice.type === 'custom' ? choice.customBackgroundUrl : null,
  };
}

export const catalogueImageUrl = (id: string): string => `/api/backgrounds/${encodeURIComponent(id)}/image`;

/** What the processor draws for a choice; null for None (no processing at all). */
export function processorEffectFor(choice: BackgroundChoice): ProcessorEffect | null {
  switch (choice.type) {
    case 'none':
      return null;
    case 'blur':
      return { mode: 'blur', intensity: choice.blurIntensity, imageUrl: null };
    case 'virtual':
      return {
        mode: 'image',
        intensity: choice.blurIntensity,
        imageUrl: choice.backgroundId ? catalogueImageUrl(choice.backgroundId) : null,
      };
    case 'custom':
      return { mode: 'image', intensity: choice.blurIntensity, imageUrl: choice.customBackgroundUrl };
  }
}

/** The current-effect badge (spec §2). */
export function effectLabel(choice: BackgroundChoice, catalogue?: BackgroundItem[]): string {
  switch (choice.type) {
    case 'none':
      return 'None';
    case 'blur':
      return `Blur ${choice.blurIntensity}`;
    case 'virtual': {
      const name = catalogue?.find((b) => b.id === choice.backgroundId)?.name;
      return name ? `Virtual: ${name}` : 'Virtual';
    }
    case 'custom':
      return 'Custom';
  }
}

export function inCategory(list: BackgroundItem[], category: Category): BackgroundItem[] {
  return category === 'all' ? list : list.filter((b) => b.category === category);
}

/** Whether two choices draw the same thing (a slider tick that changes nothing is not re-sent). */
export function sameEffect(a: BackgroundChoice, b: BackgroundChoice): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'blur') return a.blurIntensity === b.blurIntensity;
  if (a.type === 'virtual') return a.backgroundId === b.backgroundId;
  if (a.type === 'custom') return a.customBackgroundUrl === b.customBackgroundUrl;
  return true;
}
