import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema/index.js';
import { unauthorized } from '../../http/errors.js';

/** The signed-in user, or a 401. Every route that needs a user calls this first. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw unauthorized('Please log in');
  return request.auth.user;
}

/**
 * The same check as a `preValidation` hook: who may call is decided before the body and params
 * are read, so a caller without a session gets 401, never a 400 about their input.
 */
export async function signedInFirst(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
