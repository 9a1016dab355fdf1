import type { MeetingReport } from '@parley/protocol';
import { actionItemLine, meetingPdf } from '../../lib/pdf.js';

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
  const { doc, regular, bold, heading, para, list, finish } = meetingPdf({
    title: report.title || 'Meeting',
    subtitle: `Meeting report · Meeting ${report.meetingId}`,
    infoTitle: `Meeting report ${report.meetingId}`,
  });

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
    list(s.actionItems.map(actionItemLine));
    heading('Decisions');
    list(s.decisions.map((d) => d.text));
  } else {
    para('No summary was generated for this meeting.');
  }
  return finish();
}
