import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { MeetingReport } from '@parley/protocol';

/** Debian's DejaVu Sans, as in the AI summary's PDF (ai/pdf.ts): names in any script. */
const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const REGULAR = `${FONT_DIR}/DejaVuSans.ttf`;
const BOLD = `${FONT_DIR}/DejaVuSans-Bold.ttf`;

/** 83 min 20 s → "1:23:20"; 75 s → "1:15". */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

const clock = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : 'still in');

/**
 * The meeting report as a PDF (pdfkit, in the AI summary PDF's style): duration, counts,
 * attendance with talk time (a bar per participant), then the AI summary's overview, action items
 * and decisions when there is one.
 */
export function reportPdf(report: MeetingReport): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Meeting report ${report.meetingId}` },
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
    .text(report.title || 'Meeting');
  doc.font(regular).fontSize(10).fillColor('#555555');
  doc.text(`Meeting report · Meeting ${report.meetingId}`);
  doc.fillColor('#000000');

  heading('Overview');
  para(`Duration: ${formatDuration(report.durationMs)}`);
  para(`Started: ${report.startedAt ? clock(report.startedAt) : 'nobody joined'}`);
  para(`Ended: ${report.endedAt ? clock(report.endedAt) : report.startedAt ? 'still running' : '-'}`);
  para(`Participants: ${report.totals.participants}`);
  para(`Chat messages: ${report.totals.chatMessages}`);
  para(`Files shared: ${report.totals.files}`);
  para(`Total talk time: ${formatDuration(report.totals.talkMs)}`);

  heading('Attendance');
  if (report.attendance.length === 0) para('Nobody joined this meeting.');
  for (const a of report.attendance) {
    doc
      .font(bold)
      .fontSize(10.5)
      .text(`${a.name}${a.isHost ? ' (host)' : ''}`);
    para(
      `Joined ${clock(a.joinedAt)} · Left ${clock(a.leftAt)} · Present ${formatDuration(a.presentMs)} · Talk time ${formatDuration(a.talkMs)}`,
    );
  }

  heading('Talk time');
  const most = Math.max(1, ...report.attendance.map((a) => a.talkMs));
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right - 160;
  for (const a of report.attendance) {
    const y = doc.y;
    doc.font(regular).fontSize(9.5).text(a.name, doc.page.margins.left, y, { width: 110, ellipsis: true });
    const barWidth = Math.max(1, (a.talkMs / most) * width);
    doc.rect(doc.page.margins.left + 115, y + 1, barWidth, 9).fill('#4f46e5');
    doc
      .fillColor('#000000')
      .text(formatDuration(a.talkMs), doc.page.margins.left + 120 + barWidth, y, { lineBreak: false });
    doc.x = doc.page.margins.left;
    doc.y = y + 15;
  }
  if (report.attendance.length === 0) para('None');

  const s = report.summary;
  heading('AI summary');
  if (s) {
    para(s.summary || 'None');
    heading('Action Items');
    list(
      s.actionItems.map((a) => {
        const who = a.owner ? ` (owner: ${a.owner}` : ' (owner: not named';
        return `${a.text}${who}${a.due ? `, due ${a.due})` : ')'}`;
      }),
    );
    heading('Decisions');
    list(s.decisions.map((d) => d.text));
  } else {
    para('No summary was generated for this meeting.');
  }
  doc.end();
  return done;
}
