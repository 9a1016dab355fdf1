/**
 * The part of npm `janode` (Meetecho's Janus client, plain JavaScript without types) this
 * provider uses. janode has no request timeouts: every call goes through `timed()` (janus-client.ts).
 */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export interface JanodeSession extends EventEmitter {
    attach<H>(plugin: { Handle: new (...args: never[]) => H }): Promise<H>;
    destroy(): Promise<void>;
  }
  export interface JanodeConnection extends EventEmitter {
    create(keepAliveSecs?: number): Promise<JanodeSession>;
    getInfo(): Promise<Record<string, unknown>>;
    close(): Promise<void>;
  }
  const Janode: {
    connect(config: {
      address: { url: string; apisecret?: string };
      retry_time_secs?: number;
      max_retries?: number;
    }): Promise<JanodeConnection>;
    EVENT: Record<string, string>;
    Logger: { setLevel(level: string): void };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import type { EventEmitter } from 'node:events';

  export interface Jsep {
    type: 'offer' | 'answer';
    sdp: string;
  }
  export interface SubscriberStream {
    type: 'audio' | 'video' | 'data';
    active: boolean;
    mid: string;
    feed_id?: string | number;
    feed_mid?: string;
  }
  export interface VideoRoomHandle extends EventEmitter {
    create(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    destroy(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    joinConfigurePublisher(
      params: Record<string, unknown>,
    ): Promise<{ jsep?: Jsep } & Record<string, unknown>>;
    joinSubscriber(
      params: Record<string, unknown>,
    ): Promise<{ jsep?: Jsep; streams?: SubscriberStream[] } & Record<string, unknown>>;
    update(params: {
      subscribe?: Record<string, unknown>[];
      unsubscribe?: Record<string, unknown>[];
    }): Promise<{ jsep?: Jsep; streams?: SubscriberStream[] } & Record<string, unknown>>;
    configure(params: {
      streams?: { mid: string; substream?: number; send?: boolean }[];
      /** Publishers: record (into the room's rec_dir, as `filename`) or stop recording. */
      record?: boolean;
      filename?: string;
      /** Publishers: Janus sends the publisher a key frame request (PLI). */
      keyframe?: boolean;
    }): Promise<Record<string, unknown>>;
    start(params: { jsep: Jsep }): Promise<unknown>;
    trickle(candidate: unknown): Promise<unknown>;
    trickleComplete(): Promise<unknown>;
    detach(): Promise<void>;
  }
  const VideoRoomPlugin: {
    id: string;
    Handle: new (...args: never[]) => VideoRoomHandle;
    EVENT: Record<string, string>;
  };
  export default VideoRoomPlugin;
}
