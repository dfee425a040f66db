import type { IncomingMessage } from "node:http";
import type { BodyBudget } from "./body-budget.js";
import { openAIError, type OpenAIError } from "./openai-error.js";

type BodyOutcome = { ok: true; value: unknown } | { ok: false; error: OpenAIError };

/**
 * The body as JSON, or the error to answer with: too large (413, at once
 * where its Content-Length says so), more than the bodies in flight may
 * hold together (503), too slow (408), not JSON (400). Bounded in bytes, in
 * time and in the memory all bodies share.
 */
export function readJsonBody(request: IncomingMessage, limits: { maxBytes: number; timeoutMs: number; budget: BodyBudget }): Promise<BodyOutcome> {
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.resolve({ ok: false, error: tooLarge(limits.maxBytes) });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let reserved = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.budget.give(reserved);
      request.removeAllListeners("data");
      resolve(outcome);
    };
    const reserve = (bytes: number) => {
      if (!limits.budget.take(bytes, Math.max(reserved + bytes, Number.isFinite(declared) ? declared : 0))) return false;
      reserved += bytes;
      return true;
    };
    const busy = () => settle({ ok: false, error: openAIError(503, `request bodies in flight hold the server's ${limits.budget.totalBytes} bytes for them: try again`, { type: "server_error", code: "bodies_busy" }) });
    timer = setTimeout(() => settle({ ok: false, error: openAIError(408, `the request body did not arrive within ${limits.timeoutMs} ms`) }), limits.timeoutMs);
    request.on("data", (piece: Buffer) => {
      size += piece.length;
      if (size > limits.maxBytes) return settle({ ok: false, error: tooLarge(limits.maxBytes) });
      if (size > reserved && !reserve(size - reserved)) return busy();
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

const tooLarge = (maxBytes: number) => openAIError(413, `the request body is over ${maxBytes} bytes`, { code: "body_too_large" });
