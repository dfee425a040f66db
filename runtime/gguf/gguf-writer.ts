import { GgufFormatError } from "./gguf-format-error.js";

/**
 * A minimal GGUF (version 3) writer: metadata key/values and F32, F16 or
 * Q8_0 tensors. Format reference: ggml's docs/gguf.md. Only what narrowgauge's
 * own models need is implemented; every value carries its GGUF type
 * explicitly so the file is byte-for-byte determined by the input.
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

/** How a tensor is stored: F32, F16 (IEEE half), or Q8_0 (blocks of 32 int8 with one F16 scale; rows a multiple of 32). */
export type GgufTensorType = "f32" | "f16" | "q8_0";

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: readonly number[];
  data: Float32Array;
  /** Defaults to f32. */
  type?: GgufTensorType;
}

export interface GgufFile {
  metadata: ReadonlyArray<readonly [key: string, value: GgufValue]>;
  tensors: readonly GgufTensor[];
}

const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
const GGUF_VERSION = 3;
const ALIGNMENT = 32;
const GGML_TYPE_ID: Record<GgufTensorType, number> = { f32: 0, f16: 1, q8_0: 8 };
const Q8_BLOCK = 32;

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

function elementCount(tensor: GgufTensor): number {
  const elements = tensor.dims.reduce((product, dim) => product * dim, 1);
  if (elements !== tensor.data.length) {
    throw new GgufFormatError(
      `tensor ${tensor.name}: dims ${tensor.dims.join("x")} need ${elements} values, got ${tensor.data.length}`,
    );
  }
  if (tensor.type === "q8_0" && tensor.dims[0]! % Q8_BLOCK !== 0) throw new GgufFormatError(`tensor ${tensor.name}: Q8_0 needs rows of a multiple of ${Q8_BLOCK} values, got ${tensor.dims[0]}`);
  return elements;
}

/** IEEE 754 half precision bits of a number, rounded to nearest even (what ggml's fp32→fp16 does). */
export function toHalf(value: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, value, true);
  const bits = view.getUint32(0, true);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const half = exponent - 127 + 15;
  if (half >= 0x1f) return sign | 0x7c00;
  if (half <= 0) {
    if (half < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - half;
    let rounded = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (remainder > halfway || (remainder === halfway && (rounded & 1))) rounded++;
    return sign | rounded;
  }
  let rounded = (half << 10) | (mantissa >>> 13);
  const remainder = mantissa & 0x1fff;
  if (remainder > 0x1000 || (remainder === 0x1000 && (rounded & 1))) rounded++;
  return sign | rounded;
}

/** A tensor's bytes in its storage type. */
export function encodeTensor(tensor: GgufTensor): Uint8Array {
  const data = tensor.data;
  const type = tensor.type ?? "f32";
  if (type === "f32") {
    const bytes = new Uint8Array(data.length * 4);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < data.length; index++) view.setFloat32(index * 4, data[index]!, true);
    return bytes;
  }
  if (type === "f16") {
    const bytes = new Uint8Array(data.length * 2);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < data.length; index++) view.setUint16(index * 2, toHalf(data[index]!), true);
    return bytes;
  }
  // Q8_0, as ggml's quantize_row_q8_0_ref: d = max|x| / 127, q = round(x / d), d stored as F16.
  const blocks = data.length / Q8_BLOCK;
  const bytes = new Uint8Array(blocks * (2 + Q8_BLOCK));
  const view = new DataView(bytes.buffer);
  for (let block = 0; block < blocks; block++) {
    const start = block * Q8_BLOCK;
    let amax = 0;
    for (let index = 0; index < Q8_BLOCK; index++) amax = Math.max(amax, Math.abs(data[start + index]!));
    const scale = amax / 127;
    const inverse = scale ? 1 / scale : 0;
    const offset = block * (2 + Q8_BLOCK);
    view.setUint16(offset, toHalf(scale), true);
    for (let index = 0; index < Q8_BLOCK; index++) view.setInt8(offset + 2 + index, Math.round(data[start + index]! * inverse));
  }
  return bytes;
}

function tensorByteLength(tensor: GgufTensor): number {
  const elements = elementCount(tensor);
  const type = tensor.type ?? "f32";
  return type === "f32" ? elements * 4 : type === "f16" ? elements * 2 : (elements / Q8_BLOCK) * (2 + Q8_BLOCK);
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
    sink.u32(GGML_TYPE_ID[tensor.type ?? "f32"]);
    sink.u64(dataOffset);
    dataOffset = alignUp(dataOffset + tensorByteLength(tensor));
  }

  sink.padTo(ALIGNMENT);
  for (const tensor of file.tensors) {
    sink.raw(encodeTensor(tensor));
    sink.padTo(ALIGNMENT);
  }
  return sink.concat();
}
