import { profileUpdateSchema, userSchema } from '@parley/protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, formatZodIssues, notFound } from '../../http/errors.js';
import { createUsersRepository } from '../users/repository.js';
import { requireUser, signedInFirst } from './guards.js';

function toUser(row: { id: string; email: string; firstName: string | null; lastName: string | null }) {
  return { id: row.id, email: row.email, firstName: row.firstName, lastName: row.lastName };
}

/** The current user and profile updates (spec §7). */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = createUsersRepository(app.db.db);

  app.get('/api/auth/user', { schema: { response: { 200: userSchema } } }, async (request) =>
    toUser(requireUser(request)),
  );

  app.patch(
    '/api/auth/user/update',
    {
      preValidation: signedInFirst,
      schema: {
        body: z.record(z.string(), z.unknown()),
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if ('email' in request.body) throw badRequest('Email cannot be changed');
      const parsed = profileUpdateSchema.safeParse(request.body);
      if (!parsed.success) throw badRequest(formatZodIssues(parsed.error.issues));
      const row = await users.updateProfile(user.id, parsed.data);
      if (!row) throw notFound('User not found');
      return toUser(row);
    },
  );
};
