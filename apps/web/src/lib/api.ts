/**
 * The one HTTP helper of the web app: JSON with credentials, and every failure becomes an
 * ApiError whose message is `{status}: {body text or status text}` (spec §8).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    readonly body: unknown,
  ) {
    super(`${status}: ${bodyText}`);
    this.name = 'ApiError';
  }

  /** The server's `message` (or `error`) field when it sent one, else the raw text. */
  get serverMessage(): string {
    if (this.body && typeof this.body === 'object') {
      const b = this.body as { message?: unknown; error?: unknown };
      if (typeof b.message === 'string') return b.message;
      if (typeof b.error === 'string') return b.error;
    }
    return this.bodyText;
  }

  get requiresSubscription(): boolean {
    return (
      this.status === 403 &&
      !!this.body &&
      typeof this.body === 'object' &&
      (this.body as { requiresSubscription?: unknown }).requiresSubscription === true
    );
  }
}

async function toApiError(res: Response): Promise<ApiError> {
  const text = (await res.text().catch(() => '')) || res.statusText;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return new ApiError(res.status, text, body);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A body is sent as JSON, except FormData, which goes as it is (the browser sets the multipart
 * boundary). `headers` adds to the defaults, e.g. an Authorization header.
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'include',
    headers: { Accept: 'application/json', ...headers },
  };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  if (!res.ok) throw await toApiError(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await res.json() : await res.text()) as T;
}

/** GET that answers null on 401 (how "not signed in" is read, spec §4). */
export async function getOrNullOn401<T>(url: string): Promise<T | null> {
  try {
    return await apiRequest<T>('GET', url);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}
