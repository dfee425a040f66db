import { ModelLoadError } from "../../engine/model-errors.js";

/**
 * Where a model's loading is: its bytes fetched (a page's model is tens to
 * hundreds of MB), then handed to llama.cpp. What a page shows meanwhile.
 */
export type LoadProgress =
  /** `totalBytes`: the response's Content-Length, null where the server sends none. */
  | { stage: "fetching"; bytes: number; totalBytes: number | null }
  | { stage: "loading"; bytes: number };

/**
 * The GGUF's bytes: a Blob as it is, a URL fetched. With `onLoad`, the body
 * is read chunk by chunk and each chunk reported (the whole file is held in
 * memory either way: llama.cpp's WebAssembly build loads from a Blob).
 */
export async function modelBlob(model: string | Blob, file: string, listener?: (progress: LoadProgress) => void): Promise<Blob> {
  // A page's listener that throws must not fail the load it watches.
  const onLoad = listener && ((progress: LoadProgress) => {
    try {
      listener(progress);
    } catch {
      // ignored
    }
  });
  if (typeof model !== "string") return model;
  const response = await fetch(model);
  if (!response.ok) throw new ModelLoadError(file, `fetching it answered HTTP ${response.status}`);
  if (!onLoad || !response.body) return response.blob();
  const length = Number(response.headers.get("content-length"));
  const totalBytes = Number.isFinite(length) && length > 0 ? length : null;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  onLoad({ stage: "fetching", bytes, totalBytes });
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    bytes += chunk.value.byteLength;
    onLoad({ stage: "fetching", bytes, totalBytes });
  }
  return new Blob(chunks as unknown as NonNullable<ConstructorParameters<typeof Blob>[0]>, { type: response.headers.get("content-type") ?? "" });
}
