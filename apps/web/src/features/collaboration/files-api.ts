import type { SharedFile } from '@parley/protocol/report';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SignalClient } from '@/features/room/signal-client';
import { apiRequest } from '@/lib/api';

const filesKey = (meetingId: string) => ['meeting-files', meetingId] as const;

/** Adds a file to the list once (by id), keeping the order the server shared them in. */
export function withFile(list: SharedFile[] | undefined, file: SharedFile): SharedFile[] {
  const rest = (list ?? []).filter((f) => f.id !== file.id);
  return [...rest, file].sort((a, b) => a.sharedAt.localeCompare(b.sharedAt));
}

/**
 * Everything shared in the meeting (chat attachments and uploads from the files area), read once
 * with the join token and kept current by the room's `file_shared` messages; read again after a
 * reconnection (what was shared meanwhile).
 */
export function useMeetingFiles(meetingId: string, joinToken: string, signal: SignalClient) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: filesKey(meetingId),
    queryFn: () =>
      apiRequest<SharedFile[]>('GET', `/api/meetings/${encodeURIComponent(meetingId)}/files`, undefined, {
        Authorization: `Bearer ${joinToken}`,
      }),
  });
  useEffect(() => {
    const offShared = signal.on('file_shared', (m) =>
      queryClient.setQueryData<SharedFile[]>(filesKey(meetingId), (list) => withFile(list, m.file)),
    );
    const offJoined = signal.on(
      'joined',
      () => void queryClient.invalidateQueries({ queryKey: filesKey(meetingId) }),
    );
    return () => {
      offShared();
      offJoined();
    };
  }, [meetingId, queryClient, signal]);
  return query;
}
