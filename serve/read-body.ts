import type { IncomingMessage } from "node:http";
import { openAIError, type OpenAIError } from "./openai-error.js";

/** The body as JSON, or the error to answer with: too large (413), too slow (408), not JSON (400). Bounded in bytes and in time. */
export function readJsonBody(request: IncomingMessage, limits: { maxBytes: number; timeoutMs: number }): Promise<{ ok: true; value: unknown } | { ok: false; error: OpenAIError }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: { ok: true; value: unknown } | { ok: false; error: OpenAIError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.removeAllListeners("data");
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ ok: false, error: openAIError(408, `the request body did not arrive within ${limits.timeoutMs} ms`) }), limits.timeoutMs);
    request.on("data", (piece: Buffer) => {
      size += piece.length;
      if (size > limits.maxBytes) return settle({ ok: false, error: openAIError(413, `the request body is over ${limits.maxBytes} bytes`, { code: "body_too_large" }) });
      chunks.push(piece);
    });
    request.on("error", () => settle({ ok: false, error: openAIError(400, "the request body could not be read") }));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        settle({ ok: true, value: JSON.parse(text) });
      } catch (error) {
        settle({ ok: false, error: openAIError(400, `the request body is not JSON: ${(error as Error).message}`, { code: "invalid_json" }) });
      }
    });
  });
}
