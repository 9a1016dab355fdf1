import { decliners } from '../../modules/rooms/consent.js';
import { memberHandler } from '../context.js';

/**
 * set_transcription {on}: RoomService.setTranscription (room state, Pro to start). When it goes
 * off, the room's speech streams end with their last words delivered. When it starts, the
 * transcript first says who in the room has declined to be transcribed.
 */
export const setTranscription = memberHandler<'set_transcription'>(async (ctx, msg) => {
  const { rooms, captions } = ctx.services;
  const changed = await rooms.setTranscription(ctx.actor, msg.on);
  if (changed && !msg.on) await captions.stopRoom(ctx.actor.roomId);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
  if (changed && msg.on) {
    const room = await rooms.room(ctx.actor.roomId);
    for (const who of room ? decliners(room) : []) await captions.notice(ctx.actor.roomId, who, 'declined');
  }
});
