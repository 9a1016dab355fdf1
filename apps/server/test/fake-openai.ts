import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible API (OpenAI, vLLM, Ollama, LocalAI, whisper servers)
 * or LibreTranslate, for adapter tests: each route checks the request's shape the way the real
 * API would (the test's `handle` throws FakeApiError for a request the real one would refuse) and
 * answers with a recorded response. Every request is kept for assertions.
 */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** The body parsed as multipart/form-data, when it is (files are Blobs). */
  form: FormData | null;
}

export interface FakeResponse {
  status?: number;
  json: unknown;
}

export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type FakeRoutes = Record<string, (req: FakeRequest) => FakeResponse | Promise<FakeResponse>>;

export interface FakeApi {
  /** http://127.0.0.1:<port> (append /v1 for an OpenAI base URL). */
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/** Routes are keyed `METHOD /path`, e.g. `POST /v1/audio/transcriptions`. */
export async function startFakeApi(routes: FakeRoutes): Promise<FakeApi> {
  const requests: FakeRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const type = req.headers['content-type'] ?? '';
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const fake: FakeRequest = {
          method: req.method ?? 'GET',
          path,
          headers: req.headers,
          body,
          json: null,
          form: null,
        };
        try {
          if (type.startsWith('application/json')) fake.json = JSON.parse(body.toString('utf8'));
          if (type.startsWith('multipart/form-data')) {
            // undici parses multipart exactly as a server would (boundary, parts, file names).
            fake.form = await new Response(body, { headers: { 'content-type': type } }).formData();
          }
          requests.push(fake);
          const route = routes[`${fake.method} ${path}`];
          if (!route) throw new FakeApiError(404, `no route ${fake.method} ${path}`);
          const answer = await route(fake);
          res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer.json));
        } catch (err) {
          const status = err instanceof FakeApiError ? err.status : 400;
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: err instanceof Error ? err.message : String(err) } }));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Throws FakeApiError(401) unless the request carries `Authorization: Bearer <key>`. */
export function requireBearer(req: FakeRequest, key: string): void {
  if (req.headers.authorization !== `Bearer ${key}`)
    throw new FakeApiError(401, 'Incorrect API key provided');
}
