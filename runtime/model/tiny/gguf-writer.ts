/**
 * A minimal GGUF (version 3) writer: metadata key/values and F32 tensors.
 * Format reference: ggml's docs/gguf.md. Only what the forged tiny model
 * needs is implemented; every value carries its GGUF type explicitly so the
 * file is byte-for-byte determined by the input.
 */

export type GgufScalar =
  | { type: "uint32"; value: number }
  | { type: "int32"; value: number }
  | { type: "float32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string };

export type GgufArray =
  | { type: "array"; itemType: "string"; values: readonly string[] }
  | { type: "array"; itemType: "float32" | "int32"; values: readonly number[] };

export type GgufValue = GgufScalar | GgufArray;

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: readonly number[];
  data: Float32Array;
}

export interface GgufFile {
  metadata: ReadonlyArray<readonly [key: string, value: GgufValue]>;
  tensors: readonly GgufTensor[];
}

const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
const GGUF_VERSION = 3;
const ALIGNMENT = 32;
const GGML_TYPE_F32 = 0;

const VALUE_TYPE_ID = {
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
} as const;

class ByteSink {
  private chunks: Uint8Array[] = [];
  length = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  private fixed(size: number, write: (view: DataView) => void): void {
    const bytes = new Uint8Array(size);
    write(new DataView(bytes.buffer));
    this.push(bytes);
  }

  u32(value: number): void {
    this.fixed(4, (view) => view.setUint32(0, value, true));
  }
  i32(value: number): void {
    this.fixed(4, (view) => view.setInt32(0, value, true));
  }
  u64(value: number): void {
    this.fixed(8, (view) => view.setBigUint64(0, BigInt(value), true));
  }
  f32(value: number): void {
    this.fixed(4, (view) => view.setFloat32(0, value, true));
  }
  u8(value: number): void {
    this.push(Uint8Array.of(value));
  }
  string(value: string): void {
    const bytes = new TextEncoder().encode(value);
    this.u64(bytes.length);
    this.push(bytes);
  }
  raw(bytes: Uint8Array): void {
    this.push(bytes);
  }
  padTo(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    if (padding > 0) this.push(new Uint8Array(padding));
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.type) {
    case "uint32":
      return sink.u32(value.value);
    case "int32":
      return sink.i32(value.value);
    case "float32":
      return sink.f32(value.value);
    case "bool":
      return sink.u8(value.value ? 1 : 0);
    case "string":
      return sink.string(value.value);
    case "array": {
      sink.u32(VALUE_TYPE_ID[value.itemType]);
      sink.u64(value.values.length);
      for (const item of value.values) {
        if (value.itemType === "string") sink.string(item as string);
        else if (value.itemType === "int32") sink.i32(item as number);
        else sink.f32(item as number);
      }
      return;
    }
  }
}

function tensorByteLength(tensor: GgufTensor): number {
  const elements = tensor.dims.reduce((product, dim) => product * dim, 1);
  if (elements !== tensor.data.length) {
    throw new RangeError(
      `tensor ${tensor.name}: dims ${tensor.dims.join("x")} need ${elements} values, got ${tensor.data.length}`,
    );
  }
  return elements * 4;
}

const alignUp = (value: number): number => Math.ceil(value / ALIGNMENT) * ALIGNMENT;

export function writeGguf(file: GgufFile): Uint8Array {
  const sink = new ByteSink();
  sink.u32(GGUF_MAGIC);
  sink.u32(GGUF_VERSION);
  sink.u64(file.tensors.length);
  sink.u64(file.metadata.length);

  for (const [key, value] of file.metadata) {
    sink.string(key);
    sink.u32(VALUE_TYPE_ID[value.type]);
    writeValue(sink, value);
  }

  let dataOffset = 0;
  for (const tensor of file.tensors) {
    sink.string(tensor.name);
    sink.u32(tensor.dims.length);
    for (const dim of tensor.dims) sink.u64(dim);
    sink.u32(GGML_TYPE_F32);
    sink.u64(dataOffset);
    dataOffset = alignUp(dataOffset + tensorByteLength(tensor));
  }

  sink.padTo(ALIGNMENT);
  for (const tensor of file.tensors) {
    const data = tensor.data;
    const bytes = new Uint8Array(data.length * 4);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < data.length; index++) view.setFloat32(index * 4, data[index]!, true);
    sink.raw(bytes);
    sink.padTo(ALIGNMENT);
  }
  return sink.concat();
}
