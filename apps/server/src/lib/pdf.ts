import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';

/** Debian's DejaVu Sans covers far more scripts than the PDF standard fonts (names, translations). */
const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const REGULAR = `${FONT_DIR}/DejaVuSans.ttf`;
const BOLD = `${FONT_DIR}/DejaVuSans-Bold.ttf`;

/** An action item as both PDFs print it: "text (owner: Ana, due 2026-12-01)". */
export function actionItemLine(a: { text: string; owner: string | null; due: string | null }): string {
  const who = a.owner ? ` (owner: ${a.owner}` : ' (owner: not named';
  return `${a.text}${who}${a.due ? `, due ${a.due})` : ')'}`;
}

/**
 * One A4 document in the house style (pdfkit): the title and a grey subtitle written, the fonts
 * chosen, and the few blocks the meeting PDFs are made of. `finish()` ends the document and
 * resolves with its bytes.
 */
export function meetingPdf(opts: { title: string; subtitle: string; infoTitle: string }) {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: opts.infoTitle } });
  const hasFonts = existsSync(REGULAR) && existsSync(BOLD);
  const regular = hasFonts ? REGULAR : 'Helvetica';
  const bold = hasFonts ? BOLD : 'Helvetica-Bold';
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const heading = (text: string) => doc.moveDown(0.8).font(bold).fontSize(13).text(text).moveDown(0.3);
  const para = (text: string) => doc.font(regular).fontSize(10.5).text(text, { paragraphGap: 3 });
  const list = (items: string[]) => {
    if (items.length === 0) return para('None');
    for (const item of items) para(`•  ${item}`);
  };

  doc.font(bold).fontSize(18).text(opts.title);
  doc.font(regular).fontSize(10).fillColor('#555555');
  doc.text(opts.subtitle);
  doc.fillColor('#000000');

  return {
    doc,
    regular,
    bold,
    heading,
    para,
    list,
    finish(): Promise<Buffer> {
      doc.end();
      return done;
    },
  };
}
