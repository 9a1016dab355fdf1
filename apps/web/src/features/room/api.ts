import type { JoinRequest, JoinResponse } from '@parley/protocol/ws';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';

/** The room's HTTP calls (spec §7). Components use these, never fetch directly. */

export interface UploadedFile {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  url: string;
}

/** The per-meeting session id (spec §3): session storage, a key per meeting, made from the time. */
export function meetingSessionId(meetingId: string, storage: Storage = sessionStorage): string {
  const key = `meeting-session-${meetingId}`;
  let id = storage.getItem(key);
  if (!id) {
    // From the current time (spec §3), plus a random part so it cannot be guessed (docs/protocol.md).
    const random =
      typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : Math.random().toString(36).slice(2);
    id = `session-${Date.now()}-${random}`;
    storage.setItem(key, id);
  }
  return id;
}

/**
 * The join token this tab was last answered for a meeting (session storage, per tab): sent as
 * `resumeToken` on the next join, it proves that a reload is the same participant; the session
 * id alone does not (docs/protocol.md).
 */
export const resumeTokenStore = {
  key: (meetingId: string) => `meeting-resume-${meetingId}`,
  load(meetingId: string): string | null {
    try {
      return sessionStorage.getItem(this.key(meetingId));
    } catch {
      return null;
    }
  },
  save(meetingId: string, token: string): void {
    try {
      sessionStorage.setItem(this.key(meetingId), token);
    } catch {
      // storage disabled: a reload joins as a new participant
    }
  },
  clear(meetingId: string): void {
    try {
      sessionStorage.removeItem(this.key(meetingId));
    } catch {
      // nothing stored
    }
  },
};

/**
 * The name and media choice of the join in progress, per meeting and per tab (session storage):
 * a reload of the room rejoins at once as the same participant; leaving forgets it.
 */
export const joinChoiceStore = {
  key: (meetingId: string) => `meeting-join-${meetingId}`,
  load(meetingId: string): { name: string; audio: boolean; video: boolean } | null {
    try {
      const v = JSON.parse(sessionStorage.getItem(this.key(meetingId)) ?? 'null') as unknown;
      if (v && typeof v === 'object' && 'name' in v && typeof v.name === 'string') {
        const o = v as { name: string; audio?: unknown; video?: unknown };
        return {
          name: o.name,
          audio: o.audio === true,
          video: o.video !== false,
        };
      }
    } catch {
      // unreadable: start over
    }
    return null;
  },
  save(meetingId: string, choice: { name: string; audio: boolean; video: boolean }): void {
    try {
      sessionStorage.setItem(this.key(meetingId), JSON.stringify(choice));
    } catch {
      // storage disabled: a reload shows the pre-join dialog again
    }
  },
  clear(meetingId: string): void {
    try {
      sessionStorage.removeItem(this.key(meetingId));
    } catch {
      // nothing stored
    }
  },
};

/**
 * This browser's own random id (local storage): a guest whose browser refuses cookies keeps its
 * free-time clock by it across reloads and rejoins. Undefined when storage is disabled.
 */
export function browserId(storage: Storage | undefined = globalThis.localStorage): string | undefined {
  try {
    let id = storage?.getItem('parley-browser-id') ?? null;
    if (!id) {
      id = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
      storage?.setItem('parley-browser-id', id);
    }
    return id;
  } catch {
    return undefined;
  }
}

export function joinMeeting(meetingId: string, body: JoinRequest): Promise<JoinResponse> {
  return apiRequest<JoinResponse>('POST', `/api/meetings/${encodeURIComponent(meetingId)}/join`, body);
}

/** What a failed join means for the screen the user sees. */
export type JoinFailure =
  | { kind: 'not_found' }
  | { kind: 'ended' }
  | { kind: 'full'; message?: string }
  | { kind: 'password'; wrong: boolean }
  | { kind: 'rate_limited'; message?: string }
  | { kind: 'removed'; message: string }
  | { kind: 'error'; message: string };

function requiresPassword(body: unknown): boolean {
  return (
    !!body && typeof body === 'object' && (body as { requiresPassword?: unknown }).requiresPassword === true
  );
}

export function classifyJoinError(err: unknown, passwordTried: boolean): JoinFailure {
  if (!(err instanceof ApiError))
    return { kind: 'error', message: 'Please check your connection and try again.' };
  const msg = err.serverMessage.toLowerCase();
  switch (err.status) {
    case 404:
      return { kind: 'not_found' };
    case 410:
      return { kind: 'ended' };
    case 409:
      // Full because this server has no video server (a peer-to-peer cap): the server says so.
      if (msg.includes('video server')) return { kind: 'full', message: err.serverMessage };
      return msg.includes('full')
        ? { kind: 'full' }
        : msg.includes('end')
          ? { kind: 'ended' }
          : { kind: 'full' };
    case 401:
    case 403:
      // Only the server's password answer means "password"; any other refusal is an error.
      if (requiresPassword(err.body)) return { kind: 'password', wrong: passwordTried };
      // The deny list: the server's own words say why, and that trying again will not help.
      if (err.status === 403 && msg.includes('removed'))
        return { kind: 'removed', message: err.serverMessage };
      return { kind: 'error', message: err.serverMessage || 'Please try again.' };
    case 429:
      // A full waiting room is a full meeting for the moment; the rest are limits on attempts
      // (a locked password entry says for how long). Either way the server's text is shown.
      if (msg.includes('waiting room')) return { kind: 'full', message: err.serverMessage };
      return err.serverMessage
        ? { kind: 'rate_limited', message: err.serverMessage }
        : { kind: 'rate_limited' };
    default:
      return { kind: 'error', message: err.serverMessage || 'Please try again.' };
  }
}

/** Uploads a chat attachment with the join token (the server checks type and size). */
export async function uploadMeetingFile(
  meetingId: string,
  joinToken: string,
  file: File,
): Promise<UploadedFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest<UploadedFile>('POST', `/api/meetings/${encodeURIComponent(meetingId)}/files`, form, {
    Authorization: `Bearer ${joinToken}`,
  });
}

export function useUploadFile(meetingId: string, joinToken: string) {
  return useMutation({ mutationFn: (file: File) => uploadMeetingFile(meetingId, joinToken, file) });
}
