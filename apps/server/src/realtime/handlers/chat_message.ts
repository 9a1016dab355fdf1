import { memberHandler } from '../context.js';

/**
 * chat_message {content, fileId?}: persisted with a server id and timestamp, then broadcast to the
 * room; the sender's copy echoes its requestId. Blank → error bad_message; a duplicate within 1 s
 * → only an ack.
 */
export const chatMessage = memberHandler<'chat_message'>('admitted', async (ctx, msg) => {
  const { room, member } = ctx;
  const result = await ctx.services.chat.send(room, member, { content: msg.content, fileId: msg.fileId });
  if (result.kind === 'rejected') return ctx.fail(result.code, result.message, msg.requestId);
  if (result.kind === 'duplicate') return ctx.reply({ type: 'ack', requestId: msg.requestId });
  const { hub } = ctx.services;
  hub.publish(room, { kind: 'all', except: member.id }, { type: 'chat_message', ...result.message });
  hub.publish(
    room,
    { kind: 'one', participantId: member.id },
    { type: 'chat_message', ...result.message, requestId: msg.requestId },
  );
});
