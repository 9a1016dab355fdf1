import type { AiCapabilities, MeetingSummary, TranscriptLine } from '@parley/protocol/ai';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The AI calls the room makes (spec §7). Components use these, never fetch directly. */

export interface SummaryView extends MeetingSummary {
  engine: string;
  generatedAt: string;
  sourceLines: number;
  /** The host saved the meeting's content past the 30-day retention. */
  kept: boolean;
}

const bearer = (joinToken: string) => ({ Authorization: `Bearer ${joinToken}` });

/** What this server's engines can serve (languages), for the picker. */
export function useAiCapabilities() {
  return useQuery({
    queryKey: ['ai-capabilities'],
    queryFn: () => apiRequest<AiCapabilities>('GET', '/api/ai/capabilities'),
    staleTime: 5 * 60_000,
  });
}

/** The last summary of the meeting (a reload shows it again); null when none was made yet. */
export function useSavedSummary(meetingId: string, joinToken: string, enabled: boolean) {
  return useQuery({
    queryKey: ['meeting-summary', meetingId],
    enabled,
    retry: false,
    queryFn: async () => {
      try {
        return await apiRequest<SummaryView>(
          'GET',
          `/api/meetings/${meetingId}/summary`,
          undefined,
          bearer(joinToken),
        );
      } catch {
        return null; // none yet (404), or not allowed: the Generate button says the rest
      }
    },
  });
}

/** POST /api/meetings/{id}/summary with the participants' names (spec §7). */
export function useGenerateSummary(meetingId: string, joinToken: string) {
  return useMutation({
    mutationFn: (participants: string[]) =>
      apiRequest<SummaryView>(
        'POST',
        `/api/meetings/${meetingId}/summary`,
        { participants },
        bearer(joinToken),
      ),
  });
}

/** Spec §7's subscription probe: resolves for Pro, rejects with requiresSubscription otherwise. */
export function probeAiAccess() {
  return apiRequest<{ transcripts: TranscriptLine[] }>('GET', '/api/meetings/test/transcripts');
}

/** The host's Save: keep the transcript and summary past the 30-day retention. */
export function useKeepContent(meetingId: string, joinToken: string) {
  return useMutation({
    mutationFn: (keep: boolean) =>
      apiRequest<{ keep: boolean }>(
        'PUT',
        `/api/meetings/${meetingId}/retention`,
        { keep },
        bearer(joinToken),
      ),
  });
}

/** Where the transcript downloads as WebVTT, SubRip or text (issue 35 item 4), as the PDF does. */
export const transcriptExportUrl = (meetingId: string, format: 'vtt' | 'srt' | 'txt') =>
  `/api/meetings/${meetingId}/transcripts/export?format=${format}`;

/** Where the PDF export downloads from (the room cookie or the session authorises it). */
export const summaryPdfUrl = (meetingId: string) => `/api/meetings/${meetingId}/summary/pdf`;
