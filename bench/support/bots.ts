import type { ServerMessage } from '@parley/protocol';
import WebSocket from 'ws';

/**
 * A signaling-only participant (no media): joins through POST /join and the room's socket, as a
 * browser would, and keeps the roster it is told. Each bot is a client of its own
 * (`x-forwarded-for` 10.77.x.y: the server must run with TRUST_PROXY=true), since the server limits
 * joins per client and meeting.
 */
export class Participant {
  id = '';
  readonly others = new Set<string>();
  joinedAt = 0;
  ws!: WebSocket;
  onMessage: (m: ServerMessage, at: number) => void = () => undefined;
  /** The close code and reason of the socket, once closed (and the last error message). */
  closed: { code: number; reason: string } | null = null;
  error: string | null = null;

  /**
   * `as`: another name, media state or role (a host joins with `isHost` and the signed-in host's
   * session cookie, sent on the join and on the socket as a browser sends it).
   */
  async join(
    base: string,
    meetingId: string,
    index: number,
    as: { name?: string; isHost?: boolean; cookie?: string; media?: boolean } = {},
  ): Promise<void> {
    const name = as.name ?? `Bot ${index}`;
    const cookie: Record<string, string> = as.cookie ? { cookie: as.cookie } : {};
    const res = await fetch(`${base}/api/meetings/${meetingId}/join`, {
      method: 'POST',
      // Each bot is a client of its own (the server limits joins per client and meeting).
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.77.${index >> 8}.${index & 255}`,
        ...cookie,
      },
      body: JSON.stringify({
        name,
        isHost: as.isHost ?? false,
        isMuted: !as.media,
        isVideoOn: as.media ?? false,
        sessionId: `bench-${index}`,
      }),
    });
    if (!res.ok) throw new Error(`join ${index}: ${res.status} ${await res.text()}`);
    const { id, joinToken } = (await res.json()) as { id: string; joinToken: string };
    this.id = id;
    const q = new URLSearchParams({ meetingId, name, host: String(as.isHost ?? false) });
    this.ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?${q}`, { headers: cookie });
    this.ws.on('message', (data) => {
      const at = performance.now();
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'joined') {
        this.joinedAt = at;
        for (const p of m.participants) this.others.add(p.id);
      }
      if (m.type === 'participant_joined') this.others.add(m.participant.id);
      if (m.type === 'participant_left') this.others.delete(m.participantId);
      this.onMessage(m, at);
    });
    this.ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
    this.ws.on('message', (data) => {
      if (String(data).startsWith('{"type":"error"')) this.error = String(data).slice(0, 200);
    });
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.send(JSON.stringify({ type: 'join_meeting', joinToken }));
  }
}
