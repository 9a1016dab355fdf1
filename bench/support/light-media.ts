import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RtpPacket } from 'werift';

/**
 * Pre-encoded media for light participants (light-peer.ts): `ffmpeg` encodes ten seconds of a test
 * pattern to VP8 and of a tone to Opus once, then ONE `ffmpeg` sends them in a loop, unchanged
 * (`-c copy`), as RTP to two local UDP ports; every packet is parsed once here and handed to every
 * light publisher's track (werift rewrites SSRC, payload type, sequence number and timestamp per
 * sender). So a light publisher costs no encoding of its own, and the loop costs about 2% of a
 * core (a live encoder took 25-38%).
 *
 * A subscriber of a light publisher cannot have a key frame on demand (one encoder, many
 * publishers: a PLI cannot be answered for one of them), so the encoder makes a key frame every
 * `gop` frames. With the default of 1 (every frame a key frame) a new subscriber decodes the next
 * frame that arrives, as it would from a browser publisher that answers Janus's PLI at once.
 */
export interface LightMediaOptions {
  width?: number;
  height?: number;
  fps?: number;
  /** Frames between key frames (1: every frame is one). */
  gop?: number;
  /** Video bitrate target, bit/s. */
  videoBitrate?: number;
}

export type RtpSink = (packet: RtpPacket) => void;

/** Seconds of media encoded once and looped. */
const LOOP_S = 10;

/** Runs ffmpeg to completion (the one-off encode). */
function run(args: string[]): void {
  const res = spawnSync('ffmpeg', ['-y', ...args], { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0) throw new Error(`ffmpeg encode failed (${res.status}): ${res.stderr}`);
}

export class LightMedia {
  readonly options: Required<LightMediaOptions>;
  private ffmpeg: ChildProcess | null = null;
  private readonly sockets: dgram.Socket[] = [];
  private readonly sinks = { audio: new Set<RtpSink>(), video: new Set<RtpSink>() };
  /** Packets and key frames that came out of the encoder (for the record). */
  readonly produced = { audioPackets: 0, videoPackets: 0, videoFrames: 0, keyFrames: 0 };
  private stderr = '';
  private dir: string | null = null;

  constructor(options: LightMediaOptions = {}) {
    this.options = {
      width: options.width ?? 320,
      height: options.height ?? 240,
      fps: options.fps ?? 15,
      gop: options.gop ?? 1,
      videoBitrate: options.videoBitrate ?? 300_000,
    };
  }

  get pid(): number | null {
    return this.ffmpeg?.pid ?? null;
  }

  /** Binds the two ports, starts ffmpeg and waits for its first video packet. */
  async start(): Promise<void> {
    const ports: Record<'audio' | 'video', number> = { audio: 0, video: 0 };
    for (const kind of ['audio', 'video'] as const) {
      const socket = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      socket.on('message', (buf) => this.onPacket(kind, buf));
      ports[kind] = (socket.address() as AddressInfo).port;
      this.sockets.push(socket);
    }
    const { width, height, fps, gop, videoBitrate } = this.options;
    // Encoded once, then sent in a loop without re-encoding: encoding every frame as a key frame
    // live took a quarter to a third of a core (bench join-to-first-frame, `encoderCoreShare`),
    // taken from the one real browser being measured, while a real participant's encoder runs on
    // their own machine.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-light-media-'));
    this.dir = dir;
    const video = path.join(dir, 'video.ivf');
    const audio = path.join(dir, 'audio.ogg');
    run([
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${width}x${height}:rate=${fps}:duration=${LOOP_S}`,
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-g',
      String(gop),
      '-keyint_min',
      String(gop),
      '-b:v',
      String(videoBitrate),
      video,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${LOOP_S}`,
      '-map',
      '1:a',
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      '-application',
      'voip',
      '-frame_duration',
      '20',
      audio,
    ]);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      video,
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      audio,
      '-map',
      '0:v',
      '-c:v',
      'copy',
      '-f',
      'rtp',
      '-payload_type',
      '96',
      `rtp://127.0.0.1:${ports.video}?pkt_size=1200`,
      '-map',
      '1:a',
      '-c:a',
      'copy',
      '-f',
      'rtp',
      '-payload_type',
      '111',
      `rtp://127.0.0.1:${ports.audio}?pkt_size=1200`,
    ];
    const ff = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.ffmpeg = ff;
    ff.stderr?.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    const deadline = Date.now() + 10_000;
    while (this.produced.videoPackets === 0) {
      if (ff.exitCode !== null) throw new Error(`ffmpeg exited (${ff.exitCode}): ${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`no RTP from ffmpeg in 10 s: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private onPacket(kind: 'audio' | 'video', buf: Buffer): void {
    let packet: RtpPacket;
    try {
      packet = RtpPacket.deSerialize(buf);
    } catch {
      return;
    }
    if (kind === 'audio') this.produced.audioPackets += 1;
    else {
      this.produced.videoPackets += 1;
      if (packet.header.marker) this.produced.videoFrames += 1;
      if (isVp8KeyFrameStart(packet.payload)) this.produced.keyFrames += 1;
    }
    for (const sink of this.sinks[kind]) sink(packet);
  }

  /** Every packet of `kind` from now on goes to `sink` (until the returned function is called). */
  attach(kind: 'audio' | 'video', sink: RtpSink): () => void {
    this.sinks[kind].add(sink);
    return () => this.sinks[kind].delete(sink);
  }

  async stop(): Promise<void> {
    const ff = this.ffmpeg;
    this.ffmpeg = null;
    if (ff && ff.exitCode === null && ff.signalCode === null) {
      const exited = new Promise((r) => ff.once('exit', r));
      ff.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (ff.exitCode === null && ff.signalCode === null) ff.kill('SIGKILL');
    }
    for (const s of this.sockets.splice(0)) s.close();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

/**
 * Whether a VP8 RTP payload starts a key frame: the first packet of a frame (S=1, partition 0)
 * whose VP8 header's P bit is 0 (RFC 7741). Read by hand: it runs for every received video
 * packet, and werift's full descriptor parser cost more than the rest of the counting.
 */
export function isVp8KeyFrameStart(payload: Buffer): boolean {
  const b0 = payload[0];
  if (b0 === undefined || (b0 & 0x10) === 0 || (b0 & 0x07) !== 0) return false;
  let i = 1;
  if (b0 & 0x80) {
    const x = payload[i++] ?? 0;
    if (x & 0x80) i += (payload[i] ?? 0) & 0x80 ? 2 : 1; // PictureID, 7 or 15 bits
    if (x & 0x40) i += 1; // TL0PICIDX
    if (x & 0x30) i += 1; // TID/Y/KEYIDX
  }
  const header = payload[i];
  return header !== undefined && (header & 0x01) === 0;
}
