import type { TranscriptLine } from '@parley/protocol';
import { actionItemLine, meetingPdf } from '../../lib/pdf.js';
import type { SummaryView } from './service.js';

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
  const { doc, regular, bold, heading, para, list, finish } = meetingPdf({
    title: input.title || 'Meeting',
    subtitle: `Meeting ${input.meetingId} · ${input.date.toISOString().slice(0, 10)}`,
    infoTitle: `Meeting summary ${input.meetingId}`,
  });

  const s = input.summary;
  if (s) {
    heading('Overview');
    para(s.summary || 'None');
    heading('Key Points');
    list(s.keyPoints.map((k) => k.text));
    heading('Action Items');
    list(s.actionItems.map(actionItemLine));
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
    const said =
      line.kind === 'notice' ? `(${line.originalText})` : `[${line.language}]  ${line.originalText}`;
    doc.font(regular).text(`  ${said}`, { paragraphGap: 2 });
  }
  return finish();
}
