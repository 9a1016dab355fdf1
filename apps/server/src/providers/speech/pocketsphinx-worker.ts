/**
 * A decoder worker thread: loads one pocketsphinx decoder (~0.5 s; ~120 MiB RSS with the thread)
 * and decodes the stream or clip the server thread sends it. Decoding blocks, which is why it
 * lives here and not on the event loop. An entry point of its own in the bundle (build.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadSphinx, trimHeap } from './sphinx-binding.js';
import { type DecoderSink, SphinxDecoder } from './sphinx-decoder.js';
import type { FromWorker, ToWorker, WorkerData } from './worker-protocol.js';

/** How often (in decoded audio) the worker reports its progress, for the backlog. */
const PROGRESS_EVERY_SAMPLES = 8_000;

const port = parentPort;
if (!port) throw new Error('pocketsphinx-worker.ts runs only as a worker thread');
const send = (message: FromWorker) => port.postMessage(message);
const deliver: DecoderSink = {
  utterance: (utterance) => send({ type: 'utterance', utterance }),
  partial: (partial) => send({ type: 'partial', partial }),
};
const finalOnly: DecoderSink = { utterance: deliver.utterance };
/** The open stream's sink: partials only for a stream that asked for them. */
let sink = finalOnly;

let decoder: SphinxDecoder;
try {
  const started = performance.now();
  decoder = new SphinxDecoder(loadSphinx(), workerData as WorkerData);
  send({ type: 'ready', loadMs: Math.round(performance.now() - started) });
} catch (err) {
  send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

let decoded = 0;
let reported = 0;

port.on('message', (message: ToWorker) => {
  try {
    switch (message.type) {
      case 'open':
        sink = message.partials ? deliver : finalOnly;
        decoder.open({ maxUtteranceMs: message.maxUtteranceMs });
        decoded = reported = 0;
        break;
      case 'pcm':
        decoder.write(message.samples, sink);
        decoded += message.samples.length;
        if (decoded - reported >= PROGRESS_EVERY_SAMPLES) {
          reported = decoded;
          send({ type: 'progress', samples: decoded });
        }
        break;
      case 'skip':
        decoder.skip(message.samples, sink);
        decoded += message.samples;
        break;
      case 'flush':
        decoder.flush(sink);
        send({ type: 'progress', samples: decoded });
        send({ type: 'done', seq: message.seq });
        break;
      case 'end':
        decoder.end(sink);
        send({ type: 'done', seq: message.seq });
        break;
      case 'clip':
        send({ type: 'clip', seq: message.seq, text: decoder.decodeClip(message.samples) });
        break;
      case 'free':
        decoder.free();
        trimHeap();
        port.close();
        break;
    }
  } catch (err) {
    const seq = 'seq' in message ? message.seq : undefined;
    send({ type: 'error', seq, message: err instanceof Error ? err.message : String(err) });
  }
});
