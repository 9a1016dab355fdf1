import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../pages/DevSignIn.js';
import { newContext, screenshot } from '../support/browser.js';
import { eventually } from '../support/poll.js';

const baseURL = inject('baseURL');
const run = Date.now().toString(36);

/**
 * A camera that shows a person: a drawn head and shoulders in front of a bookshelf (MediaPipe's
 * selfie model finds the figure: face and body 255, wall 0, checked while writing this test),
 * swaying a little, written as a Y4M file for Chromium's fake camera.
 */
function personSvg(dx: number): string {
  let books = '';
  for (let x = 0; x < 640; x += 14) {
    const h = 90 + ((x * 13) % 40);
    const colour = `hsl(${(x * 37) % 360},55%,45%)`;
    books += `<rect x="${x}" y="${60 + ((x * 7) % 30)}" width="11" height="${h}" fill="${colour}"/>`;
    books += `<rect x="${x}" y="${250 + ((x * 7) % 30)}" width="11" height="${h}" fill="${colour}"/>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#d8cbb4"/>${books}` +
    `<g transform="translate(${dx},0)">` +
    `<path d="M170,480 C180,380 240,340 320,335 C400,340 460,380 470,480 Z" fill="#2f4f7f"/>` +
    `<rect x="295" y="280" width="50" height="70" rx="20" fill="#e0ac85"/>` +
    `<ellipse cx="320" cy="220" rx="72" ry="92" fill="#e8b68f"/>` +
    `<path d="M248,205 C250,120 390,110 392,205 C385,160 255,160 248,205 Z" fill="#3b2a20"/>` +
    `<ellipse cx="293" cy="220" rx="9" ry="6" fill="#2b2b2b"/><ellipse cx="347" cy="220" rx="9" ry="6" fill="#2b2b2b"/>` +
    `<path d="M300,265 Q320,280 340,265" stroke="#a0522d" stroke-width="5" fill="none"/></g></svg>`
  );
}

/** Frames as YUV 4:2:0 (BT.601, full range as Chromium's Y4M reader takes "C420jpeg"). */
async function writePersonY4m(file: string, frames = 24): Promise<void> {
  const w = 640;
  const h = 480;
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F24:1 Ip A1:1 C420jpeg\n`)];
  for (let f = 0; f < frames; f++) {
    const dx = Math.round(12 * Math.sin((f / frames) * Math.PI * 2));
    const rgb = await sharp(Buffer.from(personSvg(dx)))
      .removeAlpha()
      .raw()
      .toBuffer();
    const y = Buffer.alloc(w * h);
    const u = Buffer.alloc((w / 2) * (h / 2));
    const v = Buffer.alloc((w / 2) * (h / 2));
    for (let i = 0; i < w * h; i++) {
      const r = rgb[i * 3]!;
      const g = rgb[i * 3 + 1]!;
      const b = rgb[i * 3 + 2]!;
      y[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    }
    for (let j = 0; j < h / 2; j++)
      for (let i = 0; i < w / 2; i++) {
        const p = (j * 2 * w + i * 2) * 3;
        const r = rgb[p]!;
        const g = rgb[p + 1]!;
        const b = rgb[p + 2]!;
        u[j * (w / 2) + i] = Math.max(
          0,
          Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)),
        );
        v[j * (w / 2) + i] = Math.max(
          0,
          Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)),
        );
      }
    parts.push(Buffer.from('FRAME\n'), y, u, v);
  }
  writeFileSync(file, Buffer.concat(parts));
}

const BOOKS = { x: 20, y: 70, w: 120, h: 90 };
const FACE = { x: 295, y: 190, w: 50, h: 50 };
/** Above the head: wall (a mask upside down would count it as the person's body). */
const ABOVE_HEAD = { x: 300, y: 20, w: 40, h: 40 };
const SHIRT = { x: 290, y: 420, w: 60, h: 40 };
const SKIN = [232, 182, 143];
const SHIRT_COLOUR = [47, 79, 127];

interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Measure {
  mean: number[];
  edges: number;
}
type Snapshot = Record<'books' | 'face' | 'shirt' | 'above', Measure>;

/**
 * Mean colour and edge energy of each region of the preview canvas (its own 640x480 pixels),
 * all read from one copy of one frame: a check never mixes two frames, or a frame the
 * software WebGL on a loaded machine has not finished drawing with the next one.
 */
async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(
    (regions) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="demo-canvas"]')!;
      const c = document.createElement('canvas');
      c.width = canvas.width;
      c.height = canvas.height;
      const g = c.getContext('2d', { willReadFrequently: true })!;
      g.drawImage(canvas, 0, 0);
      const measure = (r: Region) => {
        const d = g.getImageData(r.x, r.y, r.w, r.h).data;
        const mean = [0, 0, 0];
        let edges = 0;
        for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) mean[k]! += d[i + k]!;
        for (let y = 0; y < r.h; y++)
          for (let x = 0; x < r.w - 1; x++) {
            const i = (y * r.w + x) * 4;
            edges +=
              Math.abs(d[i]! - d[i + 4]!) + Math.abs(d[i + 1]! - d[i + 5]!) + Math.abs(d[i + 2]! - d[i + 6]!);
          }
        return { mean: mean.map((m) => m / (d.length / 4)), edges: edges / (r.h * (r.w - 1)) };
      };
      return {
        books: measure(regions.books),
        face: measure(regions.face),
        shirt: measure(regions.shirt),
        above: measure(regions.above),
      };
    },
    { books: BOOKS, face: FACE, shirt: SHIRT, above: ABOVE_HEAD },
  );
}

/** The mean colour of the same region of a catalogue picture scaled to cover 640x480. */
async function pictureRegion(page: Page, id: string, r: Region): Promise<number[]> {
  return page.evaluate(
    async ({ id, r }) => {
      const img = new Image();
      img.src = `/api/backgrounds/${id}/image`;
      await img.decode();
      const scale = Math.max(640 / img.naturalWidth, 480 / img.naturalHeight);
      const c = document.createElement('canvas');
      c.width = 640;
      c.height = 480;
      const g = c.getContext('2d')!;
      const w = img.naturalWidth * scale;
      const h = img.naturalHeight * scale;
      g.drawImage(img, (640 - w) / 2, (480 - h) / 2, w, h);
      const d = g.getImageData(r.x, r.y, r.w, r.h).data;
      const mean = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) mean[k]! += d[i + k]!;
      return mean.map((m) => m / (d.length / 4));
    },
    { id, r },
  );
}

const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));

describe('background effects on a person', () => {
  let browser: Browser;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-person-'));
    const file = path.join(dir, 'person.y4m');
    await writePersonY4m(file);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${file}`,
        '--use-fake-ui-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ['the compositor the page picks', ''],
    ['WebGL2', '?compositor=webgl2'],
  ])('with %s: a picture replaces the wall, blur softens it, the person stays', async (_label, query) => {
    const page = await (await newContext(browser, baseURL)).newPage();
    await signIn(page, {
      email: `person-${query ? 'gl' : '2d'}-${run}@example.com`,
      firstName: 'Pam',
      lastName: 'Person',
    });
    await page.goto(`/background-demo${query}`);
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await page.getByTestId('processor-badge').filter({ hasText: 'Ready' }).waitFor({ timeout: 30_000 });
    const panel = page.getByTestId('background-panel');

    // Plain: the books have their edges and the face its colour, in one and the same frame.
    const plain = (
      await eventually(
        () => snapshot(page),
        (r) => r.books.edges > 10 && distance(r.face.mean, SKIN) < 30,
        20_000,
      )
    ).books;

    // Virtual: the wall takes the picture's colours, the face and shirt keep their own.
    await panel.getByRole('button', { name: 'Virtual' }).click();
    await page
      .getByRole('dialog', { name: 'Virtual Backgrounds' })
      .getByRole('button', { name: 'Ocean Waves', exact: true })
      .click();
    const picture = await pictureRegion(page, 'ocean-waves', BOOKS);
    const above = await pictureRegion(page, 'ocean-waves', ABOVE_HEAD);
    const replaced = await eventually(
      () => snapshot(page),
      (r) =>
        distance(r.books.mean, picture) < 30 &&
        distance(r.face.mean, SKIN) < 30 &&
        distance(r.shirt.mean, SHIRT_COLOUR) < 30 &&
        distance(r.above.mean, above) < 30,
      20_000,
    );
    expect(distance(replaced.books.mean, plain.mean)).toBeGreaterThan(40);
    await screenshot(page, `backgrounds-person-virtual${query ? '-webgl2' : ''}`);

    // Blur: the books lose their edges, the face keeps its colour.
    await panel.getByRole('button', { name: 'Blur' }).click();
    const blurred = await eventually(
      () => snapshot(page),
      (r) =>
        r.books.edges < plain.edges * 0.5 &&
        distance(r.books.mean, plain.mean) < 40 &&
        distance(r.face.mean, SKIN) < 30,
      20_000,
    );
    await screenshot(page, `backgrounds-person-blur${query ? '-webgl2' : ''}`);
    console.log(
      `${query || 'default'}: books edges ${plain.edges.toFixed(1)} → blur ${blurred.books.edges.toFixed(1)}; ` +
        `virtual colour distance to picture ${distance(replaced.books.mean, picture).toFixed(1)}`,
    );
    await page.context().close();
  });
});
