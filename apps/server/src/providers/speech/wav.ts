/** 16 kHz mono s16le PCM wrapped in a WAV header: what transcription APIs accept everywhere. */
export function pcmToWav(pcm: Buffer, sampleRate = 16_000): Buffer {
  const data = pcm.length - (pcm.length % 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // bytes a second
  header.writeUInt16LE(2, 32); // bytes a frame
  header.writeUInt16LE(16, 34); // bits a sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, pcm.subarray(0, data)]);
}

/** Copies PCM bytes into samples of their own (an ArrayBuffer that may be transferred). */
export function pcmSamples(pcm: Buffer): Int16Array {
  const samples = new Int16Array(pcm.length >> 1);
  Buffer.from(samples.buffer).set(pcm.subarray(0, samples.length * 2));
  return samples;
}
