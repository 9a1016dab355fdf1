import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error a service throws to answer with a 4xx and a message users can read. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers the answer carries (Retry-After of a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A 429 with its Retry-After (whole seconds, at least 1) and the message saying how long. */
export const tooManyRequests = (message: string, retryAfterMs: number) =>
  new HttpError(429, message, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Not signed in') => new HttpError(401, message);
export const forbidden = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(403, message, extra);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** Where and what is wrong, as zod reports it: a path inside the request part, and a message. */
export interface InputIssue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * The one wording of bad input, for the schema validation of every route and for the checks a
 * route makes itself: `Invalid request: body.title: Required; params.meetingId: …`.
 */
export function formatZodIssues(issues: readonly InputIssue[], part = 'body'): string {
  const parts = issues.map((i) => {
    const where = i.path.map((p) => String(p)).join('.');
    return `${part}${where ? `.${where}` : ''}: ${i.message}`;
  });
  return `Invalid request: ${parts.join('; ')}`;
}

function describeValidation(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message ?? 'Invalid value',
    }));
    return formatZodIssues(issues, error.validationContext ?? 'body');
  }
  return `Invalid request: ${error.message}`;
}

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors` option).
 * Fastify's own answers echo the whole offending URL back; these say what is wrong instead.
 */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      void reply.status(414).send({ message: 'A part of the URL is too long' });
      return;
    case 'FST_ERR_BAD_URL':
      void reply.status(400).send({ message: 'The URL is not valid (bad percent-encoding)' });
      return;
    default:
      request.log.error({ err: error }, 'router error');
      void reply.status(500).send({ message: 'Internal server error' });
  }
}

/**
 * One error handler for the whole API: bad input becomes a 4xx with `{message}`, anything else a
 * logged 500 whose details stay in the log.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, ...error.extra });
    }
    if (error.validation) {
      return reply.status(400).send({ message: describeValidation(error) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.status(400).send({ message: 'Malformed JSON in request body' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply
          .status(400)
          .send({ message: 'Request body is empty but Content-Type is application/json' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({ message: 'Request body is too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send({ message: 'Unsupported Content-Type' });
      default:
        break;
    }
    if (error instanceof SyntaxError) {
      return reply.status(400).send({ message: 'Malformed JSON in request body' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error' });
  });
}
