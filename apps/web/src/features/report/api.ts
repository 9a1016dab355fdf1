import type { MeetingReport } from '@parley/protocol/report';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';

export const reportPdfUrl = (meetingId: string) =>
  `/api/meetings/${encodeURIComponent(meetingId)}/report.pdf`;

/** The meeting's report, for its owner (404 for anyone else, 401 when not signed in). */
export function useMeetingReport(meetingId: string) {
  return useQuery({
    queryKey: ['meeting-report', meetingId],
    queryFn: () => apiRequest<MeetingReport>('GET', `/api/meetings/${encodeURIComponent(meetingId)}/report`),
    // Not found and not signed in are answers, not failures to retry.
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}
