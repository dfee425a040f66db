import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";
import { buildLlamaServer } from "./llama-server-build.js";

/** llama-server did not come up (it exited, or never answered /health). */
export class ServerStartError extends NarrowgaugeError {
  readonly code = "server-start-failed";
  readonly endsRun = true;
  constructor(reason: string, readonly log: string) {
    super(`llama-server did not start: ${reason}${log ? `\n${log.trim().split("\n").slice(-12).join("\n")}` : ""}`);
  }
}

export interface StartServerOptions {
  /** The GGUF to serve. */
  model: string;
  /** Parallel slots (-np): how many runs it serves at once. Default 1. */
  slots?: number;
  /** Tokens per slot; the server is started with slots × this (-c). Default 4096. */
  slotContext?: number;
  /** CPU threads (-t). Default 1: on a small model more threads decode slower (measured ~30× with 2 on this project's 2-core machines). */
  threads?: number;
  /** The binary; defaults to buildLlamaServer() (cached: a build happens once per llama.cpp version). */
  binary?: string;
  /** Port on 127.0.0.1; defaults to a free one. */
  port?: number;
  /** Flash attention; off by default, as in process on the CPU. */
  flashAttention?: boolean;
  /** Longest wait for the server to load the model and answer /health, in ms. Default 60 000. */
  startMs?: number;
  /** More command-line arguments. */
  extraArgs?: readonly string[];
}

export interface RunningServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the server wrote so far (its log). */
  log(): string;
  /** Stops it (SIGTERM, then SIGKILL after 3 s); resolves once it has exited. */
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts llama-server on `model` on a loopback port and waits until it
 * answers /health. The server runs with the settings the in-process path
 * uses (flash attention off, one thread, continuous batching over `slots`).
 */
export async function startLlamaServer(options: StartServerOptions): Promise<RunningServer> {
  const binary = options.binary ?? (await buildLlamaServer());
  const port = options.port ?? (await freePort());
  const slots = options.slots ?? 1;
  const args = [
    "--model", options.model, "--host", "127.0.0.1", "--port", String(port),
    "--parallel", String(slots), "--ctx-size", String(slots * (options.slotContext ?? 4096)),
    "--threads", String(options.threads ?? 1), "--threads-batch", String(options.threads ?? 1),
    "--flash-attn", options.flashAttention ? "on" : "off", "--no-webui",
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  // A server never outlives the process that started it, however that process ends (but SIGKILL).
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.off("exit", killOnExit));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(killer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startMs ?? 60_000);
  while (Date.now() < deadline) {
    if (exitedEarly) throw new ServerStartError(`it exited (code ${child.exitCode ?? child.signalCode})`, output);
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then((response) => response.status, () => 0);
    if (health === 200) return { url, process: child, log: () => output, stop };
    await sleep(100);
  }
  await stop();
  throw new ServerStartError(`no healthy answer from ${url}/health within ${options.startMs ?? 60_000} ms`, output);
}
