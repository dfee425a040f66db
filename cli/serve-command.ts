import { InvalidArgumentError, Option, type Command } from "commander";
import { startChatServer } from "../serve/chat-server.js";
import { DEFAULT_REQUEST_BOUNDS, type RequestBounds } from "../serve/request-bounds.js";
import { agentOptions, type FlagValues } from "./agent-flags.js";
import { EXIT, loadCliModel } from "./run-command.js";

const port = (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new InvalidArgumentError("must be a port number (0: a free one)");
  return value;
};

const positive = (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError("must be a positive integer");
  return value;
};

interface ServeFlags extends FlagValues {
  host: string;
  port: number;
  name?: string;
  maxBody: number;
  maxBodies?: number;
  maxTools?: number;
  maxSchemaNodes?: number;
  maxPromptChars?: number;
  corsOrigin: string[];
  allowedHost: string[];
  queueTimeout: number;
}

const collect = (value: string, previous: string[]) => [...previous, ...value.split(",").map((item) => item.trim()).filter(Boolean)];

/** Whether an address only this machine reaches. */
const loopback = (host: string) => host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);

/** What to warn of before serving on `host` with or without a key: anyone who reaches a non-loopback address without one can run the model. */
export function exposureWarning(host: string, apiKey: string | undefined): string | null {
  return apiKey || loopback(host) ? null : `WARNING: listening on ${host} without --api-key: anyone who can reach this address can run the model (clients that dial it by name need --allowed-host <name>)`;
}

/**
 * narrowgauge serve: an OpenAI-compatible chat-completions server on one
 * model, each request one guarded step (docs/serving.md). Its flags are the
 * model's (--model, --threads, --context-size, --sequences: the slots), the
 * server's, and runAgent's (the profile, the turn budget, …), applied to
 * every request.
 */
export function serveCommand(command: Command, done: (code: number) => void): Command {
  return command
    .description("an OpenAI-compatible server (POST /v1/chat/completions, GET /v1/models, GET /health): every step guarded, the conversation's state read off its messages")
    .addOption(new Option("--model <source>", "a GGUF path, demo, tiny or tiny:SEED, hf:user/repo/file.gguf, or http://host:port of llama-servers (comma-separated)").default("demo"))
    .option("--threads <n>", "CPU threads (default: 1 below 256 MiB, else the cores)", positive)
    .option("--context-size <tokens>", "tokens one slot can hold (default: the training context capped at 4096)", positive)
    .option("--sequences <n>", "slots: requests answered at once, the rest wait in order (default: 4 below 256 MiB, else 1)", positive)
    .option("--host <address>", "the address to listen on (loopback unless you say otherwise)", "127.0.0.1")
    .option("--port <n>", "the port (0: a free one, printed)", port, 8080)
    .addOption(new Option("--api-key <key>", "a key every /v1/ request must send as Authorization: Bearer <key>; /health stays open").env("NARROWGAUGE_SERVE_API_KEY"))
    .option("--name <id>", "the model's id in /v1/models (default: demo or tiny for those, else the model's name)")
    .option("--max-body <bytes>", "the largest request body; larger ones get 413", positive, 4 * 1024 * 1024)
    .option("--max-bodies <bytes>", "bytes all request bodies in flight may hold together; past it 503 (default: 8 × --max-body)", positive)
    .option("--max-tools <n>", `tools one request may declare; more get 400 (default: ${DEFAULT_REQUEST_BOUNDS.maxTools})`, positive)
    .option("--max-schema-nodes <n>", `schema objects in one request's tools and response format together; more get 400 (default: ${DEFAULT_REQUEST_BOUNDS.maxSchemaNodes})`, positive)
    .option("--max-prompt-chars <n>", "characters one message may hold (the tools' declarations half, a whole conversation 8 times as many); more get 400 before any tokenizing (default: 16 per token of the context)", positive)
    .option("--cors-origin <origin>", "a web origin whose pages may call the server (repeatable, comma-separated; * for any); pages of other origins are refused", collect, [])
    .option("--allowed-host <name>", "a Host name the server answers to besides IP addresses and localhost (repeatable, comma-separated; * for any)", collect, [])
    .option("--queue-timeout <ms>", "how long a request may wait for a free slot; then 503 with Retry-After", positive, 60_000)
    .action(async (flags: ServeFlags) => {
      if (flags.apiKey === "") {
        process.stderr.write("narrowgauge serve: --api-key (or NARROWGAUGE_SERVE_API_KEY) is empty: give a key, or leave it out to serve without one\n");
        return done(EXIT.usage);
      }
      // --api-key is this server's own; a llama-server behind it takes NARROWGAUGE_API_KEY, as the other commands read it.
      const key = flags.apiKey;
      const warning = exposureWarning(flags.host, key);
      if (warning) process.stderr.write(`narrowgauge serve: ${warning}\n`);
      const model = await loadCliModel(flags.model ?? "demo", { ...flags, apiKey: process.env.NARROWGAUGE_API_KEY || undefined });
      if (!model) return done(EXIT.usage);
      const { model: _model, ...step } = agentOptions(flags, model.description.sampling.sampling);
      // The built-in models answer to the name they were asked by, as the docs' clients send it (model: "demo").
      const source = flags.model ?? "demo";
      const name = flags.name ?? (/^(demo|tiny)(:\d+)?$/.test(source) ? source : undefined);
      let server: Awaited<ReturnType<typeof startChatServer>>;
      try {
        server = await startChatServer({ model, host: flags.host, port: flags.port, ...(key ? { apiKey: key } : {}), ...(name ? { name } : {}), maxBodyBytes: flags.maxBody, ...(flags.maxBodies ? { maxBodiesBytes: flags.maxBodies } : {}), bounds: requestBounds(flags), web: { corsOrigins: flags.corsOrigin, allowedHosts: flags.allowedHost }, queueTimeoutMs: flags.queueTimeout, step });
      } catch (error) {
        await model.dispose();
        throw error;
      }
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`serving ${model.description.name}${name ? ` as "${name}"` : ""} (${model.description.sessions ?? "unlimited"} slot(s)) at ${server.url}/v1${key ? " to clients that send its API key" : ""}; Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await server.close();
      await model.dispose();
      done(EXIT.answered);
    });
}

/** The request bounds the flags set (the server's defaults for the rest). */
function requestBounds(flags: ServeFlags): Partial<RequestBounds> {
  return { ...(flags.maxTools ? { maxTools: flags.maxTools } : {}), ...(flags.maxSchemaNodes ? { maxSchemaNodes: flags.maxSchemaNodes } : {}), ...(flags.maxPromptChars ? { maxPromptChars: flags.maxPromptChars } : {}) };
}
