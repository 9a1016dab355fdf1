import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema/index.js';
import { unauthorized } from '../../http/errors.js';

/** The signed-in user, or a 401. Every route that needs a user calls this first. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.auth) throw unauthorized('Please log in');
  return request.auth.user;
}
