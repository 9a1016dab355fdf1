import { memberHandler } from '../context.js';

/**
 * set_transcription_consent {consent}: RoomService.setTranscriptionConsent (the participant's own
 * answer to the transcription notice). A decline ends its speech stream at once, throwing away
 * what it still holds; the transcript says who declined (or allowed again).
 */
export const setTranscriptionConsent = memberHandler<'set_transcription_consent'>(async (ctx, msg) => {
  const { actor } = ctx;
  const { notice, name } = await ctx.services.rooms.setTranscriptionConsent(actor, msg.consent);
  if (msg.consent === 'declined') await ctx.services.captions.declined(actor.participantId);
  await ctx.services.captions.notice(actor.roomId, { id: actor.participantId, name }, notice);
  ctx.reply({ type: 'ack', requestId: msg.requestId });
});
