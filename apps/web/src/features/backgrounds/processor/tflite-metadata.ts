/**
 * Gives a TFLite model the metadata MediaPipe Tasks needs to feed it images. The selfie
 * segmentation models that `@mediapipe/selfie_segmentation` ships carry none: its own graph
 * scales pixels to [0, 1] itself, while the Tasks ImageSegmenter refuses a float input tensor
 * whose metadata does not say how to normalize it. The metadata added here says exactly what the
 * old graph did ((x - 0) / 255) and nothing else; the model's weights and graph are untouched.
 *
 * A TFLite file is a FlatBuffer (tensorflow/lite/schema/schema.fbs) and its metadata another
 * (tflite-support's metadata_schema.fbs, identifier "M001") stored in one of the model's buffers
 * and named by a `metadata` entry "TFLITE_METADATA". FlatBuffer offsets to tables, vectors and
 * strings only point forward, and every one is relative to where it is stored, so a new root
 * table is laid out between the file's 8-byte header and its old content (which moves as one
 * block, by a multiple of 16 so aligned tensor data stays aligned): the new root points at the
 * old vectors unchanged and at new `buffers` and `metadata` vectors that add one entry each.
 */

/** A FlatBuffer object to write; `at` refers to an object already in the file (a byte position). */
type Node =
  | { kind: 'table'; fields: Field[] }
  | { kind: 'string'; value: string }
  | { kind: 'vector'; items: Node[] }
  | { kind: 'floats'; values: number[] }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'at'; position: number };

type Field = { slot: number; type: 'u8' | 'u32'; value: number } | { slot: number; type: 'ref'; value: Node };

const table = (...fields: Field[]): Node => ({ kind: 'table', fields });
const ref = (slot: number, value: Node): Field => ({ slot, type: 'ref', value });
const string = (value: string): Node => ({ kind: 'string', value });
const vector = (...items: Node[]): Node => ({ kind: 'vector', items });
const floats = (...values: number[]): Node => ({ kind: 'floats', values });

/**
 * Writes `root` and everything it refers to at `base` onwards, parents before children (so every
 * offset points forward). Answers the bytes from `base` and the root table's position.
 */
export function writeForward(root: Node, base: number): { bytes: Uint8Array; rootAt: number } {
  let out = new Uint8Array(256);
  let end = base;
  const grow = (n: number) => {
    if (end - base + n <= out.length) return;
    const next = new Uint8Array(Math.max(out.length * 2, end - base + n));
    next.set(out);
    out = next;
  };
  const alloc = (n: number, align = 4): number => {
    end = Math.ceil(end / align) * align;
    grow(n);
    const at = end;
    end += n;
    return at;
  };
  const view = () => new DataView(out.buffer);
  const u8 = (at: number, v: number) => view().setUint8(at - base, v);
  const u16 = (at: number, v: number) => view().setUint16(at - base, v, true);
  const u32 = (at: number, v: number) => view().setUint32(at - base, v, true);
  const queue: [number, Node][] = [];

  const place = (node: Node): number => {
    switch (node.kind) {
      case 'at':
        return node.position;
      case 'string': {
        const text = new TextEncoder().encode(node.value);
        const at = alloc(4 + text.length + 1);
        u32(at, text.length);
        out.set(text, at + 4 - base);
        return at;
      }
      case 'floats': {
        const at = alloc(4 + 4 * node.values.length);
        u32(at, node.values.length);
        node.values.forEach((v, i) => view().setFloat32(at + 4 + 4 * i - base, v, true));
        return at;
      }
      case 'bytes': {
        // TFLite aligns buffer data to 16 bytes.
        end = Math.ceil((end + 4) / 16) * 16 - 4;
        const at = alloc(4 + node.value.length);
        u32(at, node.value.length);
        out.set(node.value, at + 4 - base);
        return at;
      }
      case 'vector': {
        const at = alloc(4 + 4 * node.items.length);
        u32(at, node.items.length);
        node.items.forEach((item, i) => queue.push([at + 4 + 4 * i, item]));
        return at;
      }
      case 'table': {
        const slots = Math.max(-1, ...node.fields.map((f) => f.slot)) + 1;
        const layout: [Field, number][] = [];
        let size = 4;
        for (const f of node.fields) {
          const n = f.type === 'u8' ? 1 : 4;
          size = Math.ceil(size / n) * n;
          layout.push([f, size]);
          size += n;
        }
        const vtable = alloc(4 + 2 * slots, 2);
        const at = alloc(size, 4);
        u16(vtable, 4 + 2 * slots);
        u16(vtable + 2, size);
        for (const [f, offset] of layout) u16(vtable + 4 + 2 * f.slot, offset);
        // The table's first word: how far back its vtable is.
        view().setInt32(at - base, at - vtable, true);
        for (const [f, offset] of layout) {
          if (f.type === 'ref') queue.push([at + offset, f.value]);
          else if (f.type === 'u8') u8(at + offset, f.value);
          else u32(at + offset, f.value);
        }
        return at;
      }
    }
  };

  const rootAt = place(root);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [slot, node] = next;
    const target = place(node);
    if (target <= slot) throw new Error('A FlatBuffer offset would point backwards');
    u32(slot, target - slot);
  }
  return { bytes: out.slice(0, end - base), rootAt };
}

/** Reads the tables and vectors of a FlatBuffer (only what this file needs). */
export class FlatReader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  root(): number {
    return this.view.getUint32(0, true);
  }
  identifier(): string {
    return String.fromCharCode(...this.bytes.subarray(4, 8));
  }
  /** Where a table's field is stored, or 0 when the table does not have it. */
  field(tableAt: number, slot: number): number {
    const vtable = tableAt - this.view.getInt32(tableAt, true);
    const vsize = this.view.getUint16(vtable, true);
    if (4 + 2 * slot >= vsize) return 0;
    const offset = this.view.getUint16(vtable + 4 + 2 * slot, true);
    return offset ? tableAt + offset : 0;
  }
  /** The object a reference field points at, or 0. */
  target(tableAt: number, slot: number): number {
    const at = this.field(tableAt, slot);
    return at ? at + this.view.getUint32(at, true) : 0;
  }
  /** The objects a vector of references points at. */
  items(vectorAt: number): number[] {
    const n = this.view.getUint32(vectorAt, true);
    return Array.from({ length: n }, (_, i) => {
      const at = vectorAt + 4 + 4 * i;
      return at + this.view.getUint32(at, true);
    });
  }
  string(at: number): string {
    const n = this.view.getUint32(at, true);
    return new TextDecoder().decode(this.bytes.subarray(at + 4, at + 4 + n));
  }
  floats(at: number): number[] {
    const n = this.view.getUint32(at, true);
    return Array.from({ length: n }, (_, i) => this.view.getFloat32(at + 4 + 4 * i, true));
  }
  u32(tableAt: number, slot: number): number | null {
    const at = this.field(tableAt, slot);
    return at ? this.view.getUint32(at, true) : null;
  }
  u8(tableAt: number, slot: number): number | null {
    const at = this.field(tableAt, slot);
    return at ? this.view.getUint8(at) : null;
  }
}

/** schema.fbs, table Model: the fields' slots. */
const MODEL = {
  version: 0,
  operatorCodes: 1,
  subgraphs: 2,
  description: 3,
  buffers: 4,
  metadataBuffer: 5,
  metadata: 6,
  signatureDefs: 7,
};
/** metadata_schema.fbs: ProcessUnitOptions' NormalizationOptions. */
const NORMALIZATION_OPTIONS = 1;
export const METADATA_NAME = 'TFLITE_METADATA';

/** The metadata FlatBuffer: one subgraph, one image input normalized by (x - mean) / std. */
export function imageMetadata(name: string, mean: number, std: number): Uint8Array {
  const normalization = table(ref(0, floats(mean)), ref(1, floats(std)));
  const processUnit = table({ slot: 0, type: 'u8', value: NORMALIZATION_OPTIONS }, ref(1, normalization));
  // TensorMetadata: name 0, process_units 4.
  const input = table(ref(0, string('image')), ref(4, vector(processUnit)));
  const output = table(ref(0, string('segmentation')));
  // SubGraphMetadata: input_tensor_metadata 2, output_tensor_metadata 3.
  const subgraph = table(ref(2, vector(input)), ref(3, vector(output)));
  // ModelMetadata: name 0, subgraph_metadata 3, min_parser_version 7.
  const root = table(ref(0, string(name)), ref(3, vector(subgraph)), ref(7, string('1.0.0')));
  const { bytes, rootAt } = writeForward(root, 8);
  const file = new Uint8Array(8 + bytes.length);
  file.set(bytes, 8);
  new DataView(file.buffer).setUint32(0, rootAt, true);
  file.set(new TextEncoder().encode('M001'), 4);
  return file;
}

/** The model with `metadata` added as its TFLITE_METADATA (a model that has one is refused). */
export function withMetadata(model: Uint8Array, metadata: Uint8Array): Uint8Array {
  const r = new FlatReader(model);
  if (r.identifier() !== 'TFL3') throw new Error('Not a TFLite model');
  const root = r.root();
  const buffersAt = r.target(root, MODEL.buffers);
  if (!buffersAt) throw new Error('The model has no buffers');
  const buffers = r.items(buffersAt);
  const metadataAt = r.target(root, MODEL.metadata);
  const entries = metadataAt ? r.items(metadataAt) : [];
  if (entries.some((e) => r.string(r.target(e, 0)) === METADATA_NAME))
    throw new Error('The model already has metadata');

  const build = (shift: number): Node => {
    const moved = (position: number): Node => ({ kind: 'at', position: position + shift });
    const fields: Field[] = [];
    const version = r.u32(root, MODEL.version);
    if (version !== null) fields.push({ slot: MODEL.version, type: 'u32', value: version });
    for (const slot of [
      MODEL.operatorCodes,
      MODEL.subgraphs,
      MODEL.description,
      MODEL.metadataBuffer,
      MODEL.signatureDefs,
    ]) {
      const at = r.target(root, slot);
      if (at) fields.push(ref(slot, moved(at)));
    }
    fields.push(
      ref(MODEL.buffers, vector(...buffers.map(moved), table(ref(0, { kind: 'bytes', value: metadata })))),
    );
    fields.push(
      ref(
        MODEL.metadata,
        vector(
          ...entries.map(moved),
          table(ref(0, string(METADATA_NAME)), { slot: 1, type: 'u32', value: buffers.length }),
        ),
      ),
    );
    return table(...fields);
  };
  // The new part's size does not depend on the shift (offsets are 4 bytes whatever they say).
  const size = writeForward(build(0), 8).bytes.length;
  const shift = Math.ceil(size / 16) * 16;
  const { bytes, rootAt } = writeForward(build(shift), 8);
  const out = new Uint8Array(model.length + shift);
  out.set(model.subarray(0, 8));
  new DataView(out.buffer).setUint32(0, rootAt, true);
  out.set(bytes, 8);
  out.set(model.subarray(8), 8 + shift);
  return out;
}
