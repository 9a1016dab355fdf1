import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FlatReader, METADATA_NAME, imageMetadata, withMetadata } from './tflite-metadata';

const require = createRequire(import.meta.url);
const modelFile = require.resolve('@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite');
const original = new Uint8Array(readFileSync(modelFile));

/** schema.fbs slots used below. */
const MODEL = { version: 0, operatorCodes: 1, subgraphs: 2, buffers: 4, metadata: 6 };

/** The bytes of buffer i's data vector (empty when it has none). */
function bufferData(r: FlatReader, i: number): Uint8Array {
  const buffer = r.items(r.target(r.root(), MODEL.buffers))[i]!;
  const data = r.target(buffer, 0);
  if (!data) return new Uint8Array(0);
  return r.bytes.subarray(data + 4, data + 4 + r.view.getUint32(data, true));
}

describe('withMetadata', () => {
  const patched = withMetadata(original, imageMetadata('selfie', 0, 255));
  const before = new FlatReader(original);
  const after = new FlatReader(patched);

  it('keeps the model: header, version, operators, subgraphs and every weight byte for byte', () => {
    expect(after.identifier()).toBe('TFL3');
    expect(after.u32(after.root(), MODEL.version)).toBe(before.u32(before.root(), MODEL.version));
    for (const slot of [MODEL.operatorCodes, MODEL.subgraphs]) {
      const a = after.target(after.root(), slot);
      const b = before.target(before.root(), slot);
      expect(after.items(a).length).toBe(before.items(b).length);
    }
    const n = before.items(before.target(before.root(), MODEL.buffers)).length;
    expect(n).toBeGreaterThan(10);
    for (let i = 0; i < n; i++) {
      const a = bufferData(after, i);
      expect(Buffer.from(a).equals(Buffer.from(bufferData(before, i)))).toBe(true);
      // TFLite maps tensor data in place: it must stay 16-byte aligned.
      if (a.length) expect(a.byteOffset % 16).toBe(0);
    }
  });

  it('adds one buffer holding the metadata and names it TFLITE_METADATA', () => {
    const buffers = after.items(after.target(after.root(), MODEL.buffers));
    const entries = after.items(after.target(after.root(), MODEL.metadata));
    const oldAt = before.target(before.root(), MODEL.metadata);
    const oldEntries = oldAt ? before.items(oldAt) : [];
    expect(buffers.length).toBe(before.items(before.target(before.root(), MODEL.buffers)).length + 1);
    expect(entries.length).toBe(oldEntries.length + 1);
    // The model's own entries (e.g. min_runtime_version) are still there, in order.
    oldEntries.forEach((e, i) =>
      expect(after.string(after.target(entries[i]!, 0))).toBe(before.string(before.target(e, 0))),
    );
    const added = entries.at(-1)!;
    expect(after.string(after.target(added, 0))).toBe(METADATA_NAME);
    expect(after.u32(added, 1)).toBe(buffers.length - 1);

    // The metadata: an image input normalized by (x - 0) / 255.
    const meta = new FlatReader(bufferData(after, buffers.length - 1).slice());
    expect(meta.identifier()).toBe('M001');
    const subgraph = meta.items(meta.target(meta.root(), 3))[0]!;
    const input = meta.items(meta.target(subgraph, 2))[0]!;
    const unit = meta.items(meta.target(input, 4))[0]!;
    expect(meta.u8(unit, 0)).toBe(1); // NormalizationOptions
    const options = meta.target(unit, 1);
    expect(meta.floats(meta.target(options, 0))).toEqual([0]);
    expect(meta.floats(meta.target(options, 1))).toEqual([255]);
    expect(meta.items(meta.target(subgraph, 3))).toHaveLength(1);
  });

  it('refuses a model that already has metadata, and a file that is not a model', () => {
    expect(() => withMetadata(patched, imageMetadata('x', 0, 1))).toThrow('already has metadata');
    expect(() => withMetadata(new Uint8Array(64), imageMetadata('x', 0, 1))).toThrow('Not a TFLite model');
  });
});
