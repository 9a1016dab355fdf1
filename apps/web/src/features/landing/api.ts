import type { Meeting } from '@parley/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** Instant meeting from the landing page (spec §7): the server generates the id and its state. */
export function useCreateInstantMeeting() {
  return useMutation({
    mutationFn: (input: { title: string }) =>
      apiRequest<Meeting>('POST', '/api/meetings', {
        title: input.title,
        meetingType: 'instant',
      }),
  });
}
