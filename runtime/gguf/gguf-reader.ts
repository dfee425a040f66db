import { GgufFormatError } from "./gguf-format-error.js";
import type { GgufFile, GgufTensor, GgufValue } from "./gguf-writer.js";

/**
 * Reads a GGUF (version 3) that holds what narrowgauge's writer writes:
 * metadata of its value types, and F32 tensors (F16 too), back into the
 * writer's own form, so a model can be rewritten with other tensor types
 * (quantized) and otherwise byte for byte the same metadata. Anything else
 * (another value type, a quantized tensor) is refused with a
 * GgufFormatError naming it: this is not a general GGUF reader. A file that
 * ends inside what is read is a GgufFormatError marked `truncated`.
 */

const VALUE_TYPES: Record<number, "uint32" | "int32" | "float32" | "bool" | "string" | "array"> = { 4: "uint32", 5: "int32", 6: "float32", 7: "bool", 8: "string", 9: "array" };

class ByteSource {
  offset = 0;
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  /** The next `size` bytes, read by `read` at their offset; a GgufFormatError (truncated) when the file ends first. */
  private next<Value>(size: number, read: (at: number) => Value): Value {
    if (this.offset + size > this.bytes.byteLength) throw new GgufFormatError(`the file ends at byte ${this.bytes.byteLength}, inside what is read`, true);
    const value = read(this.offset);
    this.offset += size;
    return value;
  }
  u32(): number {
    return this.next(4, (at) => this.view.getUint32(at, true));
  }
  i32(): number {
    return this.next(4, (at) => this.view.getInt32(at, true));
  }
  u64(): number {
    const value = this.next(8, (at) => this.view.getBigUint64(at, true));
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufFormatError(`a 64-bit count past 2^53 at byte ${this.offset - 8}`);
    return Number(value);
  }
  f32(): number {
    return this.next(4, (at) => this.view.getFloat32(at, true));
  }
  u8(): number {
    return this.next(1, (at) => this.bytes[at]!);
  }
  string(): string {
    const length = this.u64();
    const start = this.offset;
    const slice = this.next(length, (at) => this.bytes.subarray(at, at + length));
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(slice);
    } catch (error) {
      throw new GgufFormatError(`a string at byte ${start} is not UTF-8`, false, { cause: error });
    }
    return text;
  }
}

function readValue(source: ByteSource, typeId: number, key: string): GgufValue {
  const type = VALUE_TYPES[typeId];
  switch (type) {
    case "uint32":
      return { type, value: source.u32() };
    case "int32":
      return { type, value: source.i32() };
    case "float32":
      return { type, value: source.f32() };
    case "bool":
      return { type, value: source.u8() !== 0 };
    case "string":
      return { type, value: source.string() };
    case "array": {
      const itemType = VALUE_TYPES[source.u32()];
      const length = source.u64();
      if (itemType === "string") return { type, itemType, values: Array.from({ length }, () => source.string()) };
      if (itemType === "int32") return { type, itemType, values: Array.from({ length }, () => source.i32()) };
      if (itemType === "float32") return { type, itemType, values: Array.from({ length }, () => source.f32()) };
      throw new GgufFormatError(`${key}: arrays of ${itemType ?? "this type"} are not read`);
    }
    default:
      throw new GgufFormatError(`${key}: GGUF value type ${typeId} is not read`);
  }
}

/** ggml type id → how to read its elements. */
const TENSOR_TYPES: Record<number, { type: "f32" | "f16"; bytes: number }> = { 0: { type: "f32", bytes: 4 }, 1: { type: "f16", bytes: 2 } };

function fromHalf(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (mantissa / 1024);
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
}

function readHeader(source: ByteSource): { tensorCount: number; metadata: Array<readonly [string, GgufValue]>; alignment: number } {
  if (source.u32() !== 0x46554747) throw new GgufFormatError("not a GGUF file (bad magic)");
  const version = source.u32();
  if (version !== 3) throw new GgufFormatError(`GGUF version ${version}; only version 3 is read`);
  const tensorCount = source.u64();
  const keyCount = source.u64();
  const metadata: Array<readonly [string, GgufValue]> = [];
  let alignment = 32;
  for (let index = 0; index < keyCount; index++) {
    const key = source.string();
    const value = readValue(source, source.u32(), key);
    if (key === "general.alignment" && value.type === "uint32") alignment = value.value;
    metadata.push([key, value]);
  }
  return { tensorCount, metadata, alignment };
}

/** A GGUF's metadata alone, whatever its tensors' types. */
export function readGgufMetadata(bytes: Uint8Array): GgufFile["metadata"] {
  return readHeader(new ByteSource(bytes)).metadata;
}

/** Each tensor's name, shape, ggml type id and data offset, as the header lists them. */
function readTensorInfos(source: ByteSource, count: number): Array<{ name: string; dims: number[]; typeId: number; offset: number }> {
  return Array.from({ length: count }, () => {
    const name = source.string();
    const dims = Array.from({ length: source.u32() }, () => source.u64());
    return { name, dims, typeId: source.u32(), offset: source.u64() };
  });
}

/** A GGUF's metadata and each tensor's name and shape, whatever their types (no tensor data is read). */
export function readGgufLayout(bytes: Uint8Array): { metadata: GgufFile["metadata"]; tensors: Array<{ name: string; dims: number[] }> } {
  const source = new ByteSource(bytes);
  const { tensorCount, metadata } = readHeader(source);
  return { metadata, tensors: readTensorInfos(source, tensorCount).map(({ name, dims }) => ({ name, dims })) };
}

export function readGguf(bytes: Uint8Array): GgufFile {
  const source = new ByteSource(bytes);
  const { tensorCount, metadata, alignment } = readHeader(source);
  const infos = readTensorInfos(source, tensorCount).map(({ name, dims, typeId, offset }) => {
    const type = TENSOR_TYPES[typeId];
    if (!type) throw new GgufFormatError(`tensor ${name}: ggml type ${typeId} is not read (F32 and F16 only)`);
    return { name, dims, offset, ...type };
  });
  const dataStart = Math.ceil(source.offset / alignment) * alignment;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tensors: GgufTensor[] = infos.map((info) => {
    const count = info.dims.reduce((product, dim) => product * dim, 1);
    const start = dataStart + info.offset;
    if (start + count * info.bytes > bytes.byteLength) throw new GgufFormatError(`tensor ${info.name} runs past the end of the file`, true);
    const data = new Float32Array(count);
    for (let index = 0; index < count; index++) {
      data[index] = info.type === "f32" ? view.getFloat32(start + index * 4, true) : fromHalf(view.getUint16(start + index * 2, true));
    }
    return { name: info.name, dims: info.dims, data, type: info.type };
  });
  return { metadata, tensors };
}
