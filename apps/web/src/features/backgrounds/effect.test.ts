import type { BackgroundItem } from '@parley/protocol';
import { BACKGROUND_MESSAGES } from '@parley/protocol/texts';
import { describe, expect, it } from 'vitest';
import { applyMeetingBackground } from './api';
import {
  NO_EFFECT,
  choiceFromPreferences,
  clampIntensity,
  effectLabel,
  inCategory,
  meetingBackgroundBody,
  preferencesUpdate,
  processorEffectFor,
  sameEffect,
} from './effect';
import { blurPlan, blurRadiusFor, coverTransform } from './processor/compositor';

const item = (id: string, category: BackgroundItem['category'], isPremium = false): BackgroundItem => ({
  id,
  name: id.toUpperCase(),
  category,
  isPremium,
  thumbnailUrl: `/t/${id}`,
  imageUrl: `/i/${id}`,
});

describe('background choices', () => {
  it('start from saved preferences, else None at intensity 5 (spec §4)', () => {
    expect(choiceFromPreferences(null)).toEqual({
      type: 'none',
      blurIntensity: 5,
      backgroundId: null,
      customBackgroundUrl: null,
    });
    expect(
      choiceFromPreferences({
        userId: 'u',
        backgroundType: 'virtual',
        blurIntensity: 3,
        selectedBackgroundId: 'office-loft',
        customBackgroundUrl: null,
      }),
    ).toEqual({ type: 'virtual', blurIntensity: 3, backgroundId: 'office-loft', customBackgroundUrl: null });
  });

  it('keep the intensity within 1 to 10', () => {
    expect([clampIntensity(0), clampIntensity(11), clampIntensity(4.6), clampIntensity(Number.NaN)]).toEqual([
      1, 10, 5, 5,
    ]);
  });

  it('send the type plus blurIntensity or backgroundId (spec §7)', () => {
    const virtual = { ...NO_EFFECT, type: 'virtual' as const, backgroundId: 'mountain-lake' };
    expect(preferencesUpdate(virtual, 'u1')).toEqual({
      userId: 'u1',
      backgroundType: 'virtual',
      blurIntensity: 5,
      backgroundId: 'mountain-lake',
    });
    expect(preferencesUpdate({ ...NO_EFFECT, type: 'blur', blurIntensity: 8 })).toEqual({
      backgroundType: 'blur',
      blurIntensity: 8,
    });
    expect(meetingBackgroundBody({ ...virtual, type: 'blur' })).toEqual({
      backgroundType: 'blur',
      backgroundId: null,
      blurIntensity: 5,
      customBackgroundUrl: null,
    });
  });

  it('process nothing for None, blur at the intensity, pictures from our own API', () => {
    expect(processorEffectFor(NO_EFFECT)).toBeNull();
    expect(processorEffectFor({ ...NO_EFFECT, type: 'blur', blurIntensity: 7 })).toEqual({
      mode: 'blur',
      intensity: 7,
      imageUrl: null,
    });
    expect(processorEffectFor({ ...NO_EFFECT, type: 'virtual', backgroundId: 'low-poly' })?.imageUrl).toBe(
      '/api/backgrounds/low-poly/image',
    );
    expect(
      processorEffectFor({ ...NO_EFFECT, type: 'custom', customBackgroundUrl: '/api/backgrounds/custom/x' }),
    ).toMatchObject({ mode: 'image', imageUrl: '/api/backgrounds/custom/x' });
  });

  it('name the current effect for the badge', () => {
    const list = [item('office-loft', 'office')];
    expect(effectLabel(NO_EFFECT)).toBe('None');
    expect(effectLabel({ ...NO_EFFECT, type: 'blur', blurIntensity: 4 })).toBe('Blur 4');
    expect(effectLabel({ ...NO_EFFECT, type: 'virtual', backgroundId: 'office-loft' }, list)).toBe(
      'Virtual: OFFICE-LOFT',
    );
    expect(effectLabel({ ...NO_EFFECT, type: 'custom' })).toBe('Custom');
  });

  it('filter the catalogue by category tab', () => {
    const list = [item('a', 'office'), item('b', 'nature'), item('c', 'abstract', true), item('d', 'nature')];
    expect(inCategory(list, 'all')).toHaveLength(4);
    expect(inCategory(list, 'nature').map((b) => b.id)).toEqual(['b', 'd']);
  });

  it('tell a change that draws the same thing from one that does not', () => {
    const blur = { ...NO_EFFECT, type: 'blur' as const };
    expect(sameEffect(blur, { ...blur, backgroundId: 'x' })).toBe(true);
    expect(sameEffect(blur, { ...blur, blurIntensity: 6 })).toBe(false);
    expect(sameEffect(NO_EFFECT, { ...NO_EFFECT, blurIntensity: 9 })).toBe(true);
  });

  it('need both ids to apply a meeting background (spec §5)', async () => {
    const body = meetingBackgroundBody(NO_EFFECT);
    await expect(applyMeetingBackground('123-456-789', '', body)).rejects.toThrow(
      BACKGROUND_MESSAGES.idsRequired,
    );
    await expect(applyMeetingBackground(null, 'p1', body)).rejects.toThrow(
      'Meeting ID and participant ID required',
    );
  });
});

describe('compositing rules', () => {
  it('blur with a radius of twice the intensity (spec §5)', () => {
    expect([1, 5, 10].map(blurRadiusFor)).toEqual([2, 10, 20]);
  });

  it('run wide blurs on a smaller copy, with enough taps for the Gaussian', () => {
    expect(blurPlan(2)).toEqual({ downscale: 2, sigma: 1, taps: 3 });
    expect(blurPlan(20)).toEqual({ downscale: 4, sigma: 5, taps: 13 });
    for (const r of [2, 4, 6, 8, 10, 14, 20]) {
      const p = blurPlan(r);
      expect(p.sigma * p.downscale).toBeCloseTo(r);
      expect(p.taps).toBeGreaterThanOrEqual(2 * p.sigma);
    }
  });

  it('cover the frame with a picture of another shape, centred, without stretching', () => {
    // A 16:9 picture behind a 4:3 camera: the middle three quarters of its width.
    const wide = coverTransform({ width: 640, height: 480 }, { width: 1280, height: 720 });
    expect(wide.scaleY).toBe(1);
    expect(wide.scaleX).toBeCloseTo(0.75);
    expect(wide.offsetX).toBeCloseTo(0.125);
    // A portrait picture behind a 4:3 camera: a band of its height.
    const tall = coverTransform({ width: 640, height: 480 }, { width: 600, height: 900 });
    expect(tall.scaleX).toBe(1);
    expect(tall.scaleY).toBeCloseTo(0.5);
    expect(tall.offsetY).toBeCloseTo(0.25);
    expect(coverTransform({ width: 640, height: 480 }, { width: 0, height: 0 })).toEqual({
      scaleX: 1,
      scaleY: 1,
      offsetX: 0,
      offsetY: 0,
    });
  });
});
