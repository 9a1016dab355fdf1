import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Meetings: create, schedule, edit, delete, list, invitations (meetings issue). */
export const meetingRoutes: FastifyPluginAsyncZod = async () => {};
