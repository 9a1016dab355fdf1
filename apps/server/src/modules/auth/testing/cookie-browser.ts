/**
 * A minimal browser for API tests: fetch with a cookie jar (name, value, path; Max-Age and
 * Expires honoured) and manual redirects, so every hop of a sign-in can be inspected.
 */
interface StoredCookie {
  value: string;
  path: string;
  expiresAt: number | null;
}

export interface Hop {
  url: string;
  status: number;
  location: string | null;
  body: string;
  headers: Headers;
}

export class CookieBrowser {
  readonly jar = new Map<string, StoredCookie>();
  /** Sent with every request (e.g. Sec-Fetch-Site), like a real browser would. */
  extraHeaders: Record<string, string> = {};

  constructor(readonly origin: string) {}

  private store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      let path = '/';
      let expiresAt: number | null = null;
      for (const attr of attrs) {
        const [k, v = ''] = attr.split('=');
        const key = k!.toLowerCase();
        if (key === 'path') path = v;
        if (key === 'max-age') expiresAt = Date.now() + Number(v) * 1000;
        if (key === 'expires' && expiresAt === null) expiresAt = Date.parse(v);
      }
      const key = `${name}\t${path}`;
      if (expiresAt !== null && expiresAt <= Date.now()) this.jar.delete(key);
      else this.jar.set(key, { value, path, expiresAt });
    }
  }

  cookieHeader(pathname: string): string {
    const out: string[] = [];
    for (const [key, c] of this.jar) {
      if (c.expiresAt !== null && c.expiresAt <= Date.now()) continue;
      if (pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)) {
        out.push(`${key.split('\t')[0]}=${c.value}`);
      }
    }
    return out.join('; ');
  }

  cookie(name: string): string | undefined {
    for (const [key, c] of this.jar) if (key.split('\t')[0] === name) return c.value;
    return undefined;
  }

  /** One request, no redirect following. */
  async request(
    url: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      json?: unknown;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Hop> {
    const target = new URL(url, this.origin);
    const headers: Record<string, string> = { accept: 'text/html', ...this.extraHeaders, ...init.headers };
    const cookie = target.origin === new URL(this.origin).origin ? this.cookieHeader(target.pathname) : '';
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      headers.accept = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    this.store(res.headers.getSetCookie());
    const location = res.headers.get('location');
    return {
      url: target.href,
      status: res.status,
      location: location ? new URL(location, target).href : null,
      body: await res.text(),
      headers: res.headers,
    };
  }

  /** Follows redirects (GET) until a non-redirect answer or `stop` says so; returns every hop. */
  async follow(url: string, stop: (hop: Hop) => boolean = () => false, max = 15): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    while (next && hops.length < max) {
      const hop = await this.request(next);
      hops.push(hop);
      if (stop(hop) || hop.status < 300 || hop.status >= 400) break;
      next = hop.location;
    }
    return hops;
  }
}

/** Reads a `<form>`'s action and its inputs' values out of an HTML page. */
export function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form in page:\n${html.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = value.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  }
  return { action: form[1]!.replace(/&amp;/g, '&'), fields };
}

/**
 * Signs in through the development issuer as a person would (GET /api/login, the issuer's form,
 * its redirects, /api/callback) and answers the callback's hop; the browser then holds the
 * session cookie. Throws, naming the hop, when a step does not answer as expected.
 */
export async function signInThroughDevIssuer(
  b: CookieBrowser,
  who: { email: string; firstName: string; lastName: string },
): Promise<Hop> {
  const page = (await b.follow('/api/login')).at(-1)!;
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status} at ${page.url}`);
  const { action } = parseForm(page.body);
  const posted = await b.request(action, { form: { ...who } });
  if (!posted.location) throw new Error(`sign-in form answered ${posted.status} without a redirect`);
  const hops = await b.follow(posted.location, (h) => h.location?.includes('/api/callback') ?? false);
  const callback = hops.at(-1)!.location;
  if (!callback?.includes('/api/callback?'))
    throw new Error(`no callback after sign-in: ${hops.at(-1)!.url}`);
  return b.request(callback);
}
