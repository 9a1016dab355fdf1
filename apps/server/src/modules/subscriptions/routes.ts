import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Pro subscription API and payment webhooks (subscription issue). */
export const subscriptionRoutes: FastifyPluginAsyncZod = async () => {};
