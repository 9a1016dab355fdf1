import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml } from '../../http/html.js';
import { parseMessage } from './mime.js';
import { createOutboxRepository } from './repository.js';

const OUTBOX_LIMIT = 100;

const outboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  text: z.string(),
  calendar: z.string().nullable(),
  raw: z.string(),
});
type OutboxMessage = z.infer<typeof outboxMessageSchema>;

function renderPage(messages: OutboxMessage[]): string {
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(new Date(m.createdAt).toUTCString())}</p>
  <pre>${escapeHtml(m.text)}</pre>
  ${m.calendar ? `<details><summary>Calendar invitation (.ics)</summary><pre>${escapeHtml(m.calendar)}</pre></details>` : ''}
  <details><summary>Raw message</summary><pre>${escapeHtml(m.raw)}</pre></details>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox · Parley (development)</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
header{background:#312e81;color:#fff;padding:16px 24px}header p{margin:4px 0 0;opacity:.8;font-size:14px}
main{max-width:960px;margin:0 auto;padding:16px}
article{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px 20px;margin:12px 0}
h2{font-size:18px;margin:0 0 4px}.meta{color:#64748b;font-size:14px;margin:0 0 12px}
pre{white-space:pre-wrap;word-break:break-word;background:#f1f5f9;border-radius:8px;padding:12px;font-size:13px}
summary{cursor:pointer;color:#4338ca;margin:6px 0}
</style></head>
<body><header><h1 style="margin:0;font-size:22px">Outbox</h1>
<p>Mail the server would have sent (no SMTP_URL is set). Newest first, at most ${OUTBOX_LIMIT}. Development only.</p></header>
<main>${messages.length ? items : '<p>No messages yet.</p>'}</main></body></html>`;
}

/** Development outbox: /dev/outbox (HTML) and /dev/api/outbox (JSON), never in production. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  if (app.config.env === 'production') return;
  const outbox = createOutboxRepository(app.db.db);

  async function load(): Promise<OutboxMessage[]> {
    const rows = await outbox.latest(OUTBOX_LIMIT);
    return rows.map((r) => {
      const parsed = parseMessage(r.raw);
      const text = parsed.parts.find((p) => p.contentType === 'text/plain')?.text ?? '';
      const calendar = parsed.parts.find((p) => p.contentType === 'text/calendar')?.text ?? null;
      return {
        id: r.id,
        to: r.to,
        subject: r.subject,
        createdAt: r.createdAt.toISOString(),
        text,
        calendar,
        raw: r.raw,
      };
    });
  }

  app.get('/dev/api/outbox', { schema: { response: { 200: z.array(outboxMessageSchema) } } }, load);

  app.get('/dev/outbox', async (_request, reply) =>
    reply
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderPage(await load())),
  );
};
