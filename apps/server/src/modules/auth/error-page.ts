import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../http/html.js';

/**
 * Answers a failed sign-in: a small HTML page for a browser navigation (with Try again and Go
 * Home), `{message}` JSON for anything else.
 */
export function sendSignInError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
) {
  reply.status(status).header('cache-control', 'no-store');
  if (!(request.headers.accept ?? '').includes('text/html')) return reply.send({ message });
  return reply.type('text/html; charset=utf-8').send(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Parley</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px 16px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{max-width:440px;background:#fff;border:1px solid #e2e8f0;border-radius:16px;padding:28px}
h1{font-size:22px;margin:0 0 8px}p{color:#475569;line-height:1.5}
a{display:inline-block;margin:8px 8px 0 0;padding:10px 16px;border-radius:10px;background:#4f46e5;color:#fff;text-decoration:none;font-weight:600}
a.secondary{background:#e2e8f0;color:#0f172a}
</style>
</head>
<body>
<main>
<h1>Sign-in failed</h1>
<p>${escapeHtml(message)}</p>
<a href="/api/login">Try again</a><a class="secondary" href="/">Go Home</a>
</main>
</body>
</html>`);
}
