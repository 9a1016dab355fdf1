import { memberHandler } from '../context.js';

/**
 * chat_message {content, fileId?}: persisted with a server id and timestamp, then broadcast to the
 * room; the sender's copy echoes its requestId. Blank → error bad_message; a duplicate within 1 s
 * → only an ack.
 */
export const chatMessage = memberHandler<'chat_message'>(async (ctx, msg) => {
  const { room, member } = await ctx.services.rooms.admitted(ctx.actor);
  const result = await ctx.services.chat.send(room, member, { content: msg.content, fileId: msg.fileId });
  if (result.kind === 'rejected') return ctx.fail(result.code, result.message, msg.requestId);
  if (result.kind === 'duplicate') return ctx.reply({ type: 'ack', requestId: msg.requestId });
  const { transport } = ctx.services.sockets;
  transport.publish(room.id, { kind: 'all', except: member.id }, { type: 'chat_message', ...result.message });
  transport.publish(
    room.id,
    { kind: 'one', participantId: member.id },
    { type: 'chat_message', ...result.message, requestId: msg.requestId },
  );
});
