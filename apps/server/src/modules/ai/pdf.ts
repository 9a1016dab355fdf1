import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { TranscriptLine } from '@parley/protocol';
import type { SummaryView } from './service.js';

/** Debian's DejaVu Sans covers far more scripts than the PDF standard fonts (names, translations). */
const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const REGULAR = `${FONT_DIR}/DejaVuSans.ttf`;
const BOLD = `${FONT_DIR}/DejaVuSans-Bold.ttf`;

export interface SummaryPdfInput {
  meetingId: string;
  title: string;
  date: Date;
  summary: (SummaryView & { attendees: string[] }) | null;
  transcript: TranscriptLine[];
}

const time = (iso: string) => new Date(iso).toISOString().slice(11, 19);

/**
 * The meeting's AI report as a real PDF (pdfkit): overview, key points, action items (owner, due
 * date), decisions, attendees, then the full transcript with speakers and times (UTC).
 */
export function summaryPdf(input: SummaryPdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Meeting summary ${input.meetingId}` },
  });
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

  doc
    .font(bold)
    .fontSize(18)
    .text(input.title || 'Meeting');
  doc.font(regular).fontSize(10).fillColor('#555555');
  doc.text(`Meeting ${input.meetingId} · ${input.date.toISOString().slice(0, 10)}`);
  doc.fillColor('#000000');

  const s = input.summary;
  if (s) {
    heading('Overview');
    para(s.summary || 'None');
    heading('Key Points');
    list(s.keyPoints.map((k) => k.text));
    heading('Action Items');
    list(
      s.actionItems.map((a) => {
        const who = a.owner ? ` (owner: ${a.owner}` : ' (owner: not named';
        return `${a.text}${who}${a.due ? `, due ${a.due})` : ')'}`;
      }),
    );
    heading('Decisions');
    list(s.decisions.map((d) => d.text));
    heading('Attendees');
    list(s.attendees);
    doc.moveDown(0.3).font(regular).fontSize(8.5).fillColor('#555555');
    doc.text(`Summary by ${s.engine}, generated ${s.generatedAt.replace('T', ' ').slice(0, 16)} UTC.`);
    doc.fillColor('#000000');
  } else {
    heading('Summary');
    para('No summary was generated for this meeting.');
  }

  heading('Transcript');
  if (input.transcript.length === 0) para('None');
  for (const line of input.transcript) {
    doc
      .font(bold)
      .fontSize(10)
      .text(`${time(line.startedAt)}  ${line.speakerName}`, { continued: true });
    doc.font(regular).text(`  [${line.language}]  ${line.originalText}`, { paragraphGap: 2 });
  }
  doc.end();
  return done;
}
