import type { Locator, Page } from 'playwright-core';
import { RoomPage } from './RoomPage.js';

/** The room's collaboration area: the shared whiteboard (Excalidraw) and notes (TipTap). */
export class Collaborate {
  constructor(readonly page: Page) {}

  get area(): Locator {
    return this.page.getByTestId('collaborate');
  }
  get notesEditor(): Locator {
    return this.page.getByLabel('Shared notes');
  }
  get exportPng(): Locator {
    return this.page.getByRole('button', { name: 'Export PNG' });
  }

  async open(): Promise<void> {
    // A button of the bar; below 1024 px an item of its More menu.
    if (!(await this.area.isVisible())) await new RoomPage(this.page).useControl('Collaborate');
    await this.area.waitFor();
    await this.page.waitForFunction(() => window.__parleyCollab?.status() === 'synced');
  }

  async whiteboard(): Promise<void> {
    const tab = this.page.getByRole('tab', { name: 'Whiteboard' });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    // Excalidraw's chunk is large: compiling it on a busy machine takes a while the first time.
    await this.page.locator('[data-testid="whiteboard"] canvas.interactive').waitFor({ timeout: 40_000 });
  }

  async notes(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Notes' }).click();
    await this.notesEditor.waitFor();
  }

  /** The Notes tab chosen from the keyboard, as someone without a mouse does. */
  async notesByKeyboard(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Notes' }).focus();
    await this.page.keyboard.press('Enter');
    await this.notesEditor.waitFor();
  }

  /**
   * Draws a rectangle with the mouse at (dx, dy) from the free part of the canvas (right of the
   * shape properties panel, below the toolbar).
   */
  async drawRectangle(dx: number, dy: number, w = 80, h = 50): Promise<void> {
    const canvas = this.page.locator('[data-testid="whiteboard"] canvas.interactive');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('whiteboard canvas not on screen');
    // The tool's radio sits under its icon: click the icon's label, as a person does.
    await this.page.getByTestId('toolbar-rectangle').locator('..').click();
    const x = box.x + Math.min(240, box.width * 0.3) + dx;
    const y = box.y + 90 + dy;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + w, y + h, { steps: 8 });
    await this.page.mouse.up();
  }

  /** The live elements of the shared board, as this page's document holds them. */
  elements(): Promise<{ id: string; type: string; version: number }[]> {
    return this.page.evaluate(() => window.__parleyCollab?.elements() ?? []);
  }

  /** The notes as this page's document holds them. */
  notesText(): Promise<string> {
    return this.page.evaluate(() => window.__parleyCollab?.notes() ?? '');
  }

  /**
   * Types into the notes at the end of the document, or at its start. Two people typing at the
   * same place at once interleave their letters (as in any shared editor): a test that wants
   * each sentence whole gives them different places.
   */
  async typeNotes(text: string, at: 'end' | 'start' = 'end'): Promise<void> {
    await this.notesEditor.click();
    await this.page.keyboard.press(at === 'end' ? 'ControlOrMeta+End' : 'ControlOrMeta+Home');
    await this.page.keyboard.type(text, { delay: 15 });
  }
}

declare global {
  interface Window {
    __parleyCollab?: {
      elements(): { id: string; type: string; version: number }[];
      notes(): string;
      status(): string;
    };
  }
}
