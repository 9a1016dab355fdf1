import type { Locator, Page } from 'playwright-core';

/** Polls until `check` passes or the time is up; returns the last value. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (v: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let v = await read();
  while (!check(v)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
    v = await read();
  }
  return v;
}

/** Whether the two elements' on-screen boxes intersect. */
export async function boxesOverlap(a: Locator, b: Locator): Promise<boolean> {
  const [ba, bb] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!ba || !bb) throw new Error('element not on screen');
  return (
    ba.x < bb.x + bb.width && bb.x < ba.x + ba.width && ba.y < bb.y + bb.height && bb.y < ba.y + ba.height
  );
}

/** Whether the element lies wholly inside the page's viewport (a person can see all of it). */
export async function insideViewport(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const vp = page.viewportSize();
  if (!box || !vp) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width && box.y + box.height <= vp.height;
}
