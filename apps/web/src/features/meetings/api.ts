import type {
  CreateMeetingBody,
  InvitationsResult,
  InviteeInput,
  Meeting,
  MeetingWithInvitees,
  Recording,
  UpdateMeetingBody,
} from '@parley/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const MY_MEETINGS_KEY = ['/api/meetings/scheduled'] as const;
const meetingKey = (meetingId: string) => ['/api/meetings', meetingId] as const;

/** The signed-in user's meetings (spec §7). */
export function useMyMeetings(enabled: boolean) {
  return useQuery({
    queryKey: MY_MEETINGS_KEY,
    enabled,
    queryFn: () => apiRequest<Meeting[]>('GET', '/api/meetings/scheduled'),
  });
}

/** One meeting of the host, with its invitees, for the edit form. */
export function useMeetingForEdit(meetingId: string | null) {
  return useQuery({
    queryKey: meetingKey(meetingId ?? ''),
    enabled: !!meetingId,
    staleTime: 0,
    queryFn: () => apiRequest<MeetingWithInvitees>('GET', `/api/meetings/${encodeURIComponent(meetingId!)}`),
  });
}

export interface ScheduleResult {
  meeting: Meeting;
  invitations: InvitationsResult | null;
  invitationError: unknown;
}

/**
 * Schedules a meeting, then e-mails the invitations when at least one invitee has an address
 * (spec §5). A failed invitation call does not undo the meeting: it is reported.
 */
export function useScheduleMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      body: CreateMeetingBody;
      invitees: InviteeInput[];
    }): Promise<ScheduleResult> => {
      const meeting = await apiRequest<Meeting>('POST', '/api/meetings', input.body);
      let invitations: InvitationsResult | null = null;
      let invitationError: unknown = null;
      if (input.invitees.length > 0) {
        try {
          invitations = await apiRequest<InvitationsResult>('POST', '/api/meetings/invitations', {
            meetingId: meeting.meetingId,
            invitees: input.invitees,
          });
        } catch (err) {
          invitationError = err;
        }
      }
      return { meeting, invitations, invitationError };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: MY_MEETINGS_KEY }),
  });
}

export function useUpdateMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { meetingId: string; body: UpdateMeetingBody }) =>
      apiRequest<Meeting & { invitations: InvitationsResult }>(
        'PUT',
        `/api/meetings/${encodeURIComponent(input.meetingId)}`,
        input.body,
      ),
    onSettled: (_data, _err, input) => {
      void queryClient.invalidateQueries({ queryKey: MY_MEETINGS_KEY });
      void queryClient.invalidateQueries({ queryKey: meetingKey(input.meetingId) });
    },
  });
}

export function useDeleteMeeting() {
  return useMutation({
    mutationFn: (meetingId: string) =>
      apiRequest<{ message: string }>('DELETE', `/api/meetings/${encodeURIComponent(meetingId)}`),
  });
}

export const MY_RECORDINGS_KEY = ['/api/recordings'] as const;

/** Deletes one of the host's recordings (frees its recording storage); the list follows. */
export function useDeleteRecording() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/recordings/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MY_RECORDINGS_KEY }),
  });
}

/**
 * The recordings of the user's meetings. While one is still being recorded or processed the list
 * is asked for again every few seconds, so it turns into a download without a reload.
 */
export function useMyRecordings(enabled: boolean) {
  return useQuery({
    queryKey: MY_RECORDINGS_KEY,
    enabled,
    queryFn: () => apiRequest<Recording[]>('GET', '/api/recordings'),
    refetchInterval: (q) =>
      q.state.data?.some((r) => r.status === 'processing' || r.status === 'recording') ? 4000 : false,
  });
}
