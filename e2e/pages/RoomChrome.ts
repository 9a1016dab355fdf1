import type { Page } from 'playwright-core';

/**
 * The room's chrome as a person sees it: the header's controls and badges, the free-time pill,
 * the control bar's buttons and badge, the side panel's tabs, close button, clock strip and
 * headings. Each is measured where it is visible: its box cut to the viewport and to every
 * ancestor that clips (overflow), so a heading scrolled out of the panel does not count.
 */
const CHROME = [
  'header[class] > div:first-child',
  'header button',
  'header [role="status"]',
  '[data-testid="free-time-overlay"] [role="status"]',
  'nav[aria-label="Meeting controls"] button',
  'nav[aria-label="Meeting controls"] .rounded-full:not(button):not(button *)',
  'aside[aria-label="Side panel"] [role="tab"]',
  'aside[aria-label="Side panel"] button[aria-label="Close panel"]',
  'aside[aria-label="Side panel"] [role="status"]',
  'aside[aria-label="Side panel"] :is(h2, h3, h4)',
];

export interface ChromeBox {
  what: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChromeReport {
  boxes: ChromeBox[];
  /** Pairs of visible chrome elements (neither inside the other) whose boxes intersect. */
  overlaps: string[];
  /** The side panel covers the whole viewport (a phone): only its own chrome is measured. */
  sheet: boolean;
}

/** Measures the visible chrome of the room in `page` and every pairwise intersection. */
export async function roomChrome(page: Page): Promise<ChromeReport> {
  return page.evaluate((selectors) => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    type R = { x: number; y: number; r: number; b: number };
    const cut = (a: R, b: R): R => ({
      x: Math.max(a.x, b.x),
      y: Math.max(a.y, b.y),
      r: Math.min(a.r, b.r),
      b: Math.min(a.b, b.b),
    });
    const rectOf = (el: Element): R => {
      const d = el.getBoundingClientRect();
      return { x: d.left, y: d.top, r: d.right, b: d.bottom };
    };
    const visibleRect = (el: Element): R | null => {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return null;
      let r = cut(rectOf(el), { x: 0, y: 0, r: vw, b: vh });
      for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') r = cut(r, rectOf(a));
      }
      return r.r - r.x > 0.5 && r.b - r.y > 0.5 ? r : null;
    };
    const label = (el: Element): string => {
      const name =
        el.getAttribute('aria-label') ??
        el.getAttribute('data-testid') ??
        (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''} "${name}"`;
    };
    const aside = document.querySelector('aside[aria-label="Side panel"]');
    const asideRect = aside ? rectOf(aside) : null;
    const sheet =
      !!asideRect && asideRect.x <= 0 && asideRect.y <= 0 && asideRect.r >= vw && asideRect.b >= vh;
    const found: { el: Element; r: R }[] = [];
    for (const sel of selectors) {
      for (const el of document.querySelectorAll(sel)) {
        if (found.some((f) => f.el === el)) continue;
        if (sheet && !aside!.contains(el)) continue;
        const r = visibleRect(el);
        if (r) found.push({ el, r });
      }
    }
    const overlaps: string[] = [];
    for (let i = 0; i < found.length; i++) {
      for (let j = i + 1; j < found.length; j++) {
        const a = found[i]!;
        const b = found[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const o = cut(a.r, b.r);
        // Half a pixel: neighbours sharing an edge at a fractional position do not overlap.
        if (o.r - o.x > 0.5 && o.b - o.y > 0.5) {
          overlaps.push(
            `${label(a.el)} × ${label(b.el)} (${Math.round(o.r - o.x)}×${Math.round(o.b - o.y)} px)`,
          );
        }
      }
    }
    return {
      sheet,
      overlaps,
      boxes: found.map(({ el, r }) => ({
        what: label(el),
        x: r.x,
        y: r.y,
        width: r.r - r.x,
        height: r.b - r.y,
      })),
    };
  }, CHROME);
}

/** The control bar's visible buttons' tops (one row: all the same, within a few pixels). */
export async function barButtonTops(page: Page): Promise<number[]> {
  return page
    .locator('nav[aria-label="Meeting controls"] button')
    .evaluateAll((els) =>
      els.filter((e) => e.checkVisibility()).map((e) => Math.round(e.getBoundingClientRect().top)),
    );
}
