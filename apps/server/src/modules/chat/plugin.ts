import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createFilesRepository } from '../files/repository.js';
import { createMemoryChatMarks, createSharedChatMarks } from './marks.js';
import { createChatRepository } from './repository.js';
import { createChatService, type ChatService } from './service.js';

/** The room chat (`app.chat`): history for `joined`, and the chat_message rules. */
async function chatPlugin(app: FastifyInstance): Promise<void> {
  const marks = app.sharedState ? createSharedChatMarks(app.sharedState) : createMemoryChatMarks();
  app.decorate(
    'chat',
    createChatService(createChatRepository(app.db.db), createFilesRepository(app.db.db), marks),
  );
}

export default fp(chatPlugin, { name: 'chat', dependencies: ['bus'] });

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService;
  }
}
