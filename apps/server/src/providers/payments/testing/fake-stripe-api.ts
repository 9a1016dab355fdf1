import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received: its form body (or query), as Stripe's SDK encodes it. */
export interface StripeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

export type StripeAnswer = { status: number; body: unknown };

/** Stripe's error shape for an object it does not have. */
export const resourceMissing = (message: string): StripeAnswer => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', code: 'resource_missing', message } },
});

/**
 * A local HTTP server standing in for api.stripe.com in tests (no network here): it records every
 * request and answers with what `route` returns (JSON, with the `request-id` header the SDK
 * reads). Tests give the adapter its URL as STRIPE_API_BASE.
 */
export class FakeStripeApi {
  requests: StripeRequest[] = [];
  url = '';
  private server = http.createServer((req, res) => this.handle(req, res));

  constructor(private readonly route: (req: StripeRequest) => StripeAnswer) {}

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
      const key = req.headers['idempotency-key'];
      const recorded: StripeRequest = {
        method: req.method ?? '',
        path: url.pathname,
        headers: req.headers,
        idempotencyKey: typeof key === 'string' ? key : undefined,
        form,
      };
      this.requests.push(recorded);
      const { status, body } = this.route(recorded);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(body));
    });
  }
}
