import { escapeHtml } from '../../http/html.js';

/** HTML of the development issuer's own pages. Styles are inline (the CSP allows inline styles, no inline scripts). */

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:24px 16px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a}
main{width:100%;max-width:420px;background:#fff;border:1px solid #e2e8f0;border-radius:16px;padding:28px;box-shadow:0 1px 3px rgba(15,23,42,.08)}
.tag{display:inline-block;font-size:12px;font-weight:600;letter-spacing:.02em;color:#92400e;background:#fef3c7;border-radius:999px;padding:3px 10px}
h1{font-size:22px;margin:14px 0 6px}
p{margin:0 0 16px;color:#475569;font-size:14px;line-height:1.5}
label{display:block;font-size:14px;font-weight:600;margin:14px 0 6px}
input{width:100%;height:42px;border:1px solid #cbd5e1;border-radius:10px;padding:0 12px;font-size:15px;color:#0f172a;background:#fff}
input:focus{outline:2px solid rgba(79,70,229,.35);border-color:#4f46e5}
button,.button{display:block;width:100%;height:44px;margin-top:22px;border:0;border-radius:10px;background:#4f46e5;color:#fff;font-size:15px;font-weight:600;cursor:pointer;text-align:center;line-height:44px;text-decoration:none}
button:hover,.button:hover{background:#4338ca}
.error{color:#b91c1c;background:#fef2f2;border:1px solid #fecaca;border-radius:10px;padding:10px 12px;font-size:14px;margin:12px 0 0}
.fine{margin-top:18px;font-size:12px;color:#64748b}
code{font-size:12px;background:#f1f5f9;padding:1px 4px;border-radius:4px}
@media (prefers-color-scheme:dark){body{background:#020617;color:#f1f5f9}main{background:#0f172a;border-color:#1e293b}p,.fine{color:#94a3b8}input{background:#020617;color:#f1f5f9;border-color:#334155}code{background:#1e293b}}
`;

function layout(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${head}
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface SignInFormValues {
  email: string;
  firstName: string;
  lastName: string;
}

export function signInPage(action: string, values: SignInFormValues, error?: string): string {
  return layout(
    'Development sign-in · Parley',
    `<span class="tag">Development sign-in</span>
<h1>Sign in to Parley</h1>
<p>This is Parley's built-in development sign-in, not a real identity provider: there is no password. Enter any email address and name to continue.</p>
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" autocomplete="on">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" autofocus value="${escapeHtml(values.email)}">
<label for="firstName">First name</label>
<input id="firstName" name="firstName" type="text" maxlength="100" autocomplete="given-name" value="${escapeHtml(values.firstName)}">
<label for="lastName">Last name</label>
<input id="lastName" name="lastName" type="text" maxlength="100" autocomplete="family-name" value="${escapeHtml(values.lastName)}">
<button type="submit">Sign in</button>
</form>
<p class="fine">To sign in through a real provider (Google, Keycloak, Auth0, Okta, Entra ID), set <code>OIDC_ISSUER</code>, <code>OIDC_CLIENT_ID</code> and <code>OIDC_CLIENT_SECRET</code>.</p>`,
  );
}

/** RP-initiated logout: `form` is the provider's own form (with its anti-forgery token). */
export function logoutPage(form: string, scriptUrl: string): string {
  return layout(
    'Signing out · Parley',
    `<span class="tag">Development sign-in</span>
<h1>Signing you out…</h1>
<p>You are being signed out of the development sign-in.</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`,
    `<script src="${escapeHtml(scriptUrl)}" defer></script>`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    `${title} · Parley`,
    `<span class="tag">Development sign-in</span>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${link ? `<a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>` : ''}`,
  );
}

/** Submits the logout form at once (served as a file: the CSP allows scripts from 'self' only). */
export const LOGOUT_SCRIPT = `(function(){var f=document.getElementById('op.logoutForm');if(!f)return;var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();`;
