import { openHandler } from '../context.js';

/** ping: any socket, joined or not; answered with pong (keeps proxies from idling the socket). */
export const ping = openHandler<'ping'>((ctx, msg) => ctx.reply({ type: 'pong', requestId: msg.requestId }));
