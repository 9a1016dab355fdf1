import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';

/**
 * Outgoing mail, behind one interface: SMTP when SMTP_URL is set, otherwise the outbox table (the
 * whole RFC 822 message is kept, and /dev/outbox shows it in development). Only this folder
 * imports nodemailer.
 */

export interface MailAddress {
  email: string;
  name?: string | null;
}

export interface CalendarPart {
  /** iCalendar METHOD of the content (REQUEST, CANCEL). */
  method: 'REQUEST' | 'CANCEL';
  /** The VCALENDAR text. */
  content: string;
  /** File name of the attached copy. */
  filename?: string;
}

export interface MailMessage {
  to: MailAddress;
  subject: string;
  text: string;
  html: string;
  calendar?: CalendarPart;
  /** The meeting (row id) the mail belongs to: when every attempt fails, its host is shown it. */
  meetingId?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox' | 'queue';
  send(message: MailMessage): Promise<void>;
  /** Several messages at once (the queue adds them in one insert); otherwise one by one. */
  sendMany?(messages: MailMessage[]): Promise<void>;
  close(): void;
}

function formatAddress(a: MailAddress): string | { name: string; address: string } {
  return a.name ? { name: a.name, address: a.email } : a.email;
}

/** The nodemailer message: text and HTML alternatives, the calendar as an alternative and as a file. */
function toNodemailer(from: string, m: MailMessage): SendMailOptions {
  const options: SendMailOptions = {
    from,
    to: formatAddress(m.to),
    subject: m.subject,
    text: m.text,
    html: m.html,
  };
  if (m.calendar) {
    options.icalEvent = { method: m.calendar.method, content: m.calendar.content };
    options.attachments = [
      {
        filename: m.calendar.filename ?? (m.calendar.method === 'CANCEL' ? 'cancel.ics' : 'invite.ics'),
        content: m.calendar.content,
        contentType: `application/ics; method=${m.calendar.method}`,
      },
    ];
  }
  return options;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail(toNodemailer(from, message));
    },
    close: () => transport.close(),
  };
}

/** Where the outbox mailer keeps a rendered message (the mail module's repository). */
export type OutboxStore = (entry: { to: string; subject: string; raw: string }) => Promise<void>;

export function createOutboxMailer(store: OutboxStore, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(toNodemailer(from, message));
      const raw = Buffer.isBuffer(info.message) ? info.message.toString('utf8') : String(info.message);
      await store({ to: message.to.email, subject: message.subject, raw });
    },
    close: () => transport.close(),
  };
}

export function createMailer(mail: Config['mail'], outbox: OutboxStore): Mailer {
  return mail.smtpUrl ? createSmtpMailer(mail.smtpUrl, mail.from) : createOutboxMailer(outbox, mail.from);
}
