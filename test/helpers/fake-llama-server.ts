import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getLlama, type LlamaModel } from "node-llama-cpp";

/**
 * A stand-in for llama-server, to test what a real one will not do on cue:
 * garbage, silence, a grammar ignored, another tokenizer. By default it
 * answers like a trustworthy server (the connect checks pass) and streams
 * `step` for every completion; a test overrides one route.
 */
export interface FakeServerOptions {
  /** The GGUF whose vocabulary the fake tokenizes with (its props report this path). */
  vocabulary: string;
  slotContext?: number;
  /** The text every step completion streams, a token (here: a character) per event. */
  step?: string;
  /**
   * Requires this key as llama-server's `--api-key` does: every path but
   * /health and /v1/health answers 401 unless `Authorization: Bearer <key>`
   * (or `X-Api-Key: <key>`) carries it.
   */
  apiKey?: string;
  /** Handles a request before the defaults; return true when it answered. */
  override?: (path: string, body: Record<string, unknown>, response: ServerResponse) => boolean | Promise<boolean>;
}

export interface FakeServer {
  url: string;
  /** Every request, with the key it carried (undefined: none). */
  requests: Array<{ path: string; body: Record<string, unknown>; key?: string }>;
  close(): Promise<void>;
}

const vocabularies = new Map<string, Promise<LlamaModel>>();
const vocabularyOf = (path: string) => {
  if (!vocabularies.has(path)) vocabularies.set(path, getLlama({ build: "never", gpu: false }).then((llama) => llama.loadModel({ modelPath: path, vocabOnly: true })));
  return vocabularies.get(path)!;
};

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
};

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
  const vocabulary = await vocabularyOf(options.vocabulary);
  const requests: FakeServer["requests"] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const body = await readBody(request);
    const header = request.headers.authorization ?? request.headers["x-api-key"];
    const key = typeof header === "string" ? header.replace(/^Bearer /, "") : undefined;
    requests.push({ path, body, key });
    if (options.apiKey !== undefined && key !== options.apiKey && path !== "/health" && path !== "/v1/health") {
      return json(response, 401, { error: { code: 401, message: "Invalid API Key", type: "authentication_error" } });
    }
    if (await options.override?.(path, body, response)) return;
    if (path === "/props") return json(response, 200, { total_slots: 2, model_path: options.vocabulary, build_info: "fake-1", default_generation_settings: { n_ctx: options.slotContext ?? 4096 } });
    if (path === "/v1/models") return json(response, 200, { data: [{ meta: { n_vocab: vocabulary.fileInfo.metadata.tokenizer?.ggml?.tokens?.length, n_params: 1000 } }] });
    if (path === "/tokenize") {
      const tokens = [...vocabulary.tokenize(String(body.content), true)];
      if (body.add_special && vocabulary.tokens.shouldPrependBosToken && vocabulary.tokens.bos !== null) tokens.unshift(vocabulary.tokens.bos);
      return json(response, 200, { tokens });
    }
    if (path === "/completion") {
      if (!body.stream) {
        // The connect checks: a one-string grammar is obeyed, anything else (the malformed one) refused.
        const literal = /^root ::= "([^"]*)"$/.exec(String(body.grammar));
        if (!literal) return json(response, 400, { error: { code: 400, message: "failed to parse grammar" } });
        return json(response, 200, { content: literal[1], stop: true, stop_type: "eos" });
      }
      const step = options.step ?? "";
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const character of step) response.write(`data: ${JSON.stringify({ content: character, tokens: [1], stop: false })}\n\n`);
      response.write(`data: ${JSON.stringify({ content: "", tokens: [2], stop: false })}\n\n`); // end of generation, as llama-server streams it
      response.end(`data: ${JSON.stringify({ content: "", tokens: [], stop: true, stop_type: "eos", tokens_predicted: step.length + 1, timings: { prompt_n: (body.prompt as unknown[]).length, cache_n: 0 } })}\n\n`);
      return;
    }
    json(response, 404, { error: { message: "no such route" } });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The grammar of a step request in a route override: true for the connect check's one-string grammar. */
export const isConnectCheck = (body: Record<string, unknown>) => /^root ::= "/.test(String(body.grammar)) || body.stream !== true;

/** Writes `chunk()` every millisecond until the client goes away: a stream that never ends. */
export function endless(response: ServerResponse, chunk: () => string): void {
  response.writeHead(200);
  const timer = setInterval(() => response.write(chunk()), 1);
  response.on("close", () => clearInterval(timer));
}
