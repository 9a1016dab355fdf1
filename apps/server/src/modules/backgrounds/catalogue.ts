import type { BackgroundItem } from '@parley/protocol';
import { bokeh, blueprint, geometric, softGradient, waves } from './scenes/abstract.js';
import { beachSunset, forestMorning, mountainLake, northernLights, rollingHills } from './scenes/nature.js';
import { coworking, homeStudy, meetingRoom, minimalDesk, officeLoft } from './scenes/office.js';

/**
 * The background catalogue (spec §3): pictures the project draws itself (scenes/), five per
 * category, some of them Pro ("premium"). Each picture is an SVG rendered by sharp on first use.
 */
export interface CatalogueEntry {
  id: string;
  name: string;
  category: BackgroundItem['category'];
  isPremium: boolean;
  /** The picture as SVG source, 1280x720. */
  scene: () => string;
}

export const CATALOGUE: readonly CatalogueEntry[] = [
  { id: 'office-loft', name: 'Bright Loft', category: 'office', isPremium: false, scene: officeLoft },
  { id: 'home-study', name: 'Home Study', category: 'office', isPremium: false, scene: homeStudy },
  { id: 'minimal-wall', name: 'Minimal Wall', category: 'office', isPremium: false, scene: minimalDesk },
  { id: 'meeting-room', name: 'Glass Meeting Room', category: 'office', isPremium: true, scene: meetingRoom },
  { id: 'coworking', name: 'Coworking Space', category: 'office', isPremium: true, scene: coworking },
  { id: 'mountain-lake', name: 'Mountain Lake', category: 'nature', isPremium: false, scene: mountainLake },
  {
    id: 'forest-morning',
    name: 'Forest Morning',
    category: 'nature',
    isPremium: false,
    scene: forestMorning,
  },
  { id: 'rolling-hills', name: 'Rolling Hills', category: 'nature', isPremium: false, scene: rollingHills },
  { id: 'beach-sunset', name: 'Beach Sunset', category: 'nature', isPremium: true, scene: beachSunset },
  {
    id: 'northern-lights',
    name: 'Northern Lights',
    category: 'nature',
    isPremium: true,
    scene: northernLights,
  },
  { id: 'soft-gradient', name: 'Soft Gradient', category: 'abstract', isPremium: false, scene: softGradient },
  { id: 'low-poly', name: 'Low Poly', category: 'abstract', isPremium: false, scene: geometric },
  { id: 'ocean-waves', name: 'Ocean Waves', category: 'abstract', isPremium: false, scene: waves },
  { id: 'city-bokeh', name: 'City Bokeh', category: 'abstract', isPremium: true, scene: bokeh },
  { id: 'blueprint', name: 'Blueprint', category: 'abstract', isPremium: true, scene: blueprint },
];

const byId = new Map(CATALOGUE.map((e) => [e.id, e]));

export function findBackground(id: string): CatalogueEntry | undefined {
  return byId.get(id);
}

/** What GET /api/backgrounds answers for one entry. */
export function presentBackground(e: CatalogueEntry): BackgroundItem {
  return {
    id: e.id,
    name: e.name,
    category: e.category,
    thumbnailUrl: `/api/backgrounds/${e.id}/thumbnail`,
    imageUrl: `/api/backgrounds/${e.id}/image`,
    isPremium: e.isPremium,
  };
}
