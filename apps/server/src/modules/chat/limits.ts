/**
 * How much chat one participant, and one meeting from everyone together, may send. The security
 * review's three guests sent 300 messages of ~1,800 characters in 4 s (the socket's 50 frames a
 * second allowed it), which every summary of the meeting then had to read. Token buckets: a burst
 * up to `burst`, then `perSecond` on average; counted in messages and in characters, so a few long
 * messages are as welcome as many short ones. One person typing, or the load test's 100 people a
 * meeting writing every 10 s, never meets them.
 */
export const CHAT_LIMITS = {
  perParticipant: {
    messages: { burst: 30, perSecond: 1 },
    characters: { burst: 12_000, perSecond: 200 },
  },
  perMeeting: {
    messages: { burst: 300, perSecond: 20 },
    characters: { burst: 100_000, perSecond: 2_000 },
  },
} as const;

export const CHAT_LIMIT_MESSAGES = {
  participant: (seconds: number) =>
    `You are sending messages too fast. Wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  meeting: (seconds: number) =>
    `This meeting's chat is too busy right now. Wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
} as const;

interface Rate {
  burst: number;
  perSecond: number;
}

/** Token buckets by key (in memory, per server instance); full buckets are forgotten. */
export class Buckets {
  private readonly level = new Map<string, { tokens: number; at: number }>();
  private checks = 0;

  constructor(
    private readonly rate: Rate,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long until `amount` can be taken from `key` (0: now). Takes nothing. */
  waitMs(key: string, amount: number): number {
    const tokens = this.tokens(key);
    const need = Math.min(amount, this.rate.burst);
    return tokens >= need ? 0 : Math.ceil(((need - tokens) / this.rate.perSecond) * 1000);
  }

  take(key: string, amount: number): void {
    this.level.set(key, { tokens: this.tokens(key) - Math.min(amount, this.rate.burst), at: this.now() });
  }

  private tokens(key: string): number {
    const t = this.now();
    if (++this.checks % 1024 === 0) this.prune(t);
    const b = this.level.get(key);
    if (!b) return this.rate.burst;
    return Math.min(this.rate.burst, b.tokens + ((t - b.at) / 1000) * this.rate.perSecond);
  }

  private prune(t: number): void {
    for (const [key, b] of this.level)
      if (b.tokens + ((t - b.at) / 1000) * this.rate.perSecond >= this.rate.burst) this.level.delete(key);
  }
}

export interface ChatLimiter {
  /** null when the message may be sent (and it is counted), else the refusal to send back. */
  take(meetingId: string, participantId: string, characters: number): string | null;
}

export function createChatLimiter(now: () => number = Date.now): ChatLimiter {
  const { perParticipant, perMeeting } = CHAT_LIMITS;
  const own = {
    messages: new Buckets(perParticipant.messages, now),
    chars: new Buckets(perParticipant.characters, now),
  };
  const all = {
    messages: new Buckets(perMeeting.messages, now),
    chars: new Buckets(perMeeting.characters, now),
  };
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    take(meetingId, participantId, characters) {
      const who = `${meetingId}:${participantId}`;
      const mine = Math.max(own.messages.waitMs(who, 1), own.chars.waitMs(who, characters));
      if (mine > 0) return CHAT_LIMIT_MESSAGES.participant(seconds(mine));
      const room = Math.max(all.messages.waitMs(meetingId, 1), all.chars.waitMs(meetingId, characters));
      if (room > 0) return CHAT_LIMIT_MESSAGES.meeting(seconds(room));
      own.messages.take(who, 1);
      own.chars.take(who, characters);
      all.messages.take(meetingId, 1);
      all.chars.take(meetingId, characters);
      return null;
    },
  };
}
