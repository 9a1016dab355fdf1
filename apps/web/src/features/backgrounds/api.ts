import type {
  BackgroundItem,
  BackgroundPreferences,
  BackgroundPreferencesUpdate,
  CustomBackground,
  ParticipantBackground,
  ParticipantBackgroundInput,
} from '@parley/protocol';
import { BACKGROUND_MESSAGES } from '@parley/protocol/texts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast-store';
import { ApiError, apiRequest } from '@/lib/api';

/** The background calls of spec §7 and their toasts (§8). */

export const BACKGROUNDS_KEY = ['/api/backgrounds'] as const;
export const PREFERENCES_KEY = ['/api/backgrounds/preferences'] as const;
export const CUSTOM_KEY = ['/api/backgrounds/custom'] as const;

/** The server's message when it sent one (a premium refusal says why), else the spec's text. */
export function describeError(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status < 500 && err.serverMessage ? err.serverMessage : fallback;
}

export function useBackgrounds() {
  return useQuery({
    queryKey: BACKGROUNDS_KEY,
    queryFn: async () => {
      try {
        return await apiRequest<BackgroundItem[]>('GET', '/api/backgrounds');
      } catch (err) {
        toast({ title: 'Failed to fetch backgrounds', variant: 'destructive' });
        throw err;
      }
    },
  });
}

/** Saved preferences: asked only for a signed-in user (spec §7). */
export function useBackgroundPreferences(signedIn: boolean) {
  return useQuery({
    queryKey: PREFERENCES_KEY,
    enabled: signedIn,
    queryFn: async () => {
      try {
        return await apiRequest<BackgroundPreferences>('GET', '/api/backgrounds/preferences');
      } catch (err) {
        toast({ title: 'Failed to fetch preferences', variant: 'destructive' });
        throw err;
      }
    },
  });
}

/** PUT preferences; they are refetched on success (spec §7). */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BackgroundPreferencesUpdate) =>
      apiRequest<BackgroundPreferences>('PUT', '/api/backgrounds/preferences', body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(PREFERENCES_KEY, saved);
      await queryClient.invalidateQueries({ queryKey: PREFERENCES_KEY });
    },
    onError: (err) =>
      toast({
        title: 'Failed to update preferences',
        description: describeError(err, 'Please try again.'),
        variant: 'destructive',
      }),
  });
}

export function useCustomBackgrounds(enabled: boolean) {
  return useQuery({
    queryKey: CUSTOM_KEY,
    enabled,
    queryFn: () => apiRequest<CustomBackground[]>('GET', '/api/backgrounds/custom'),
  });
}

export function useUploadBackground() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiRequest<CustomBackground>('POST', '/api/backgrounds/custom', form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOM_KEY }),
    onError: (err) =>
      toast({
        title: 'Upload failed',
        description: describeError(err, 'The picture could not be uploaded. Please try again.'),
        variant: 'destructive',
      }),
  });
}

export function useDeleteBackground() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>('DELETE', `/api/backgrounds/custom/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOM_KEY }),
  });
}

/**
 * POST /api/meetings/{meetingId}/participants/{participantId}/background, only inside a meeting;
 * both ids are needed first (spec §5).
 */
export async function applyMeetingBackground(
  meetingId: string | null | undefined,
  participantId: string | null | undefined,
  body: ParticipantBackgroundInput,
  joinToken?: string,
): Promise<ParticipantBackground> {
  if (!meetingId || !participantId) throw new Error(BACKGROUND_MESSAGES.idsRequired);
  return apiRequest<ParticipantBackground>(
    'POST',
    `/api/meetings/${encodeURIComponent(meetingId)}/participants/${encodeURIComponent(participantId)}/background`,
    body,
    joinToken ? { Authorization: `Bearer ${joinToken}` } : undefined,
  );
}
