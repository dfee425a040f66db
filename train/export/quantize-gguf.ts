import { readGguf } from "../../runtime/gguf/gguf-reader.js";
import { writeGguf, type GgufTensorType, type GgufValue } from "../../runtime/gguf/gguf-writer.js";

/** llama.cpp's file types (llama_ftype) for the storage of the 2-D weights. */
const FILE_TYPE: Record<GgufTensorType, number> = { f32: 0, f16: 1, q8_0: 7 };

/**
 * An F32 (or F16) GGUF rewritten with its 2-D weights stored as `type`:
 * norms stay F32 (llama.cpp wants them so), the metadata stays byte for byte
 * the same but for `general.file_type`, which says the new storage.
 */
export function quantizeGguf(bytes: Uint8Array, type: GgufTensorType): Uint8Array {
  const file = readGguf(bytes);
  const fileType: GgufValue = { type: "uint32", value: FILE_TYPE[type] };
  const metadata = file.metadata.some(([key]) => key === "general.file_type")
    ? file.metadata.map(([key, value]) => [key, key === "general.file_type" ? fileType : value] as const)
    : [...file.metadata.slice(0, 3), ["general.file_type", fileType] as const, ...file.metadata.slice(3)];
  const tensors = file.tensors.map((tensor) => ({ ...tensor, type: tensor.dims.length === 2 ? type : ("f32" as const) }));
  return writeGguf({ metadata, tensors });
}
