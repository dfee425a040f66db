import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";
import { buildLlamaServer } from "./llama-server-build.js";

/** llama-server did not come up (it exited, or never answered /health). */
export class ServerStartError extends NarrowgaugeError {
  readonly code: "server-start-failed" | "server-port-taken" = "server-start-failed";
  readonly endsRun = true;
  constructor(reason: string, readonly log: string) {
    super(`llama-server did not start: ${reason}${log ? `\n${log.trim().split("\n").slice(-12).join("\n")}` : ""}`);
  }
}

/** llama-server could not bind its port, on every port tried: another process held each one. */
export class ServerPortError extends ServerStartError {
  override readonly code = "server-port-taken";
  constructor(readonly ports: readonly number[], log: string) {
    super(`${ports.length > 1 ? `ports ${ports.join(", ")} were` : `port ${ports[0]} was`} taken by another process on 127.0.0.1`, log);
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
  /**
   * A key every client must send (llama-server's --api-key; /health stays
   * open): connectServer's `apiKey`. Handed to the server in its
   * environment (LLAMA_API_KEY), not on its command line, which a process
   * list shows.
   */
  apiKey?: string;
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

/** Whether another process holds `port` on the loopback address (binding it ourselves fails with EADDRINUSE). */
function portHeld(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "EADDRINUSE"));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What llama-server writes when its port is held by another process ("couldn't
 * bind HTTP server socket", older builds "couldn't bind to server socket"), or
 * what a socket error says. Its logger is a leaked singleton whose worker
 * thread may not have written the line when the process exits, so a server
 * that exits without it is asked about too: is the port held now?
 */
const PORT_TAKEN = /couldn't bind (HTTP |to )?server socket|address already in use/i;

/**
 * Ports tried when none is given. A free port is found by binding port 0
 * and closing it, and another process can take it before llama-server binds
 * it; the server then exits at once, before loading the model, and is
 * started again on another free port.
 */
const PORT_ATTEMPTS = 3;

/** How long after its start a server has had time to bind its port, or to fail to (it binds before loading the model: ~60 ms measured). */
const TRUSTED_AFTER_MS = 3000;

/**
 * Starts llama-server on `model` on a loopback port and waits until it
 * answers /health. The server runs with the settings the in-process path
 * uses (flash attention off, one thread, continuous batching over `slots`).
 * A port taken between finding it free and the server's bind is replaced by
 * another free one, up to three ports; a ServerPortError when each was
 * taken (at once when `port` was given: it is not replaced).
 */
export async function startLlamaServer(options: StartServerOptions): Promise<RunningServer> {
  const binary = options.binary ?? (await buildLlamaServer());
  const ports: number[] = [];
  for (;;) {
    const port = options.port ?? (await freePort());
    ports.push(port);
    const started = await launch(binary, port, options);
    if ("url" in started) return started;
    if (options.port !== undefined || ports.length >= PORT_ATTEMPTS) throw new ServerPortError(ports, started.portTaken);
  }
}

/** One llama-server on `port`: running and healthy, or `portTaken` (its log) when it could not bind the port; any other failure throws. */
async function launch(binary: string, port: number, options: StartServerOptions): Promise<RunningServer | { portTaken: string }> {
  const slots = options.slots ?? 1;
  const args = [
    "--model", options.model, "--host", "127.0.0.1", "--port", String(port),
    "--parallel", String(slots), "--ctx-size", String(slots * (options.slotContext ?? 4096)),
    "--threads", String(options.threads ?? 1), "--threads-batch", String(options.threads ?? 1),
    "--flash-attn", options.flashAttention ? "on" : "off", "--no-webui",
    ...(options.extraArgs ?? []),
  ];
  const env = options.apiKey === undefined ? process.env : { ...process.env, LLAMA_API_KEY: options.apiKey };
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], env });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Its log is whole once its output streams have closed too, which may come after "exit".
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
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
  const spawned = Date.now();
  const deadline = spawned + (options.startMs ?? 60_000);
  // The process that took the port may be a server too, healthy at once.
  // This one binds its port before loading the model (tens of ms after it
  // starts), so its own first answer comes after a refusal or a 503, or
  // after the time to start: a 200 before either is not yet trusted (the
  // server then exits, failing to bind).
  let notReadySeen = false;
  while (Date.now() < deadline) {
    if (exitedEarly) {
      // Its output is whole once the pipes close; a grandchild that holds them open does not keep the start waiting.
      await Promise.race([closed, sleep(2000)]);
      if (PORT_TAKEN.test(output) || (child.exitCode === 1 && (await portHeld(port)))) return { portTaken: output };
      throw new ServerStartError(`it exited (code ${child.exitCode ?? child.signalCode})`, output);
    }
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then((response) => response.status, () => 0);
    if (health === 200 && !exitedEarly && (notReadySeen || Date.now() - spawned >= TRUSTED_AFTER_MS)) return { url, process: child, log: () => output, stop };
    if (health !== 200) notReadySeen = true;
    await sleep(100);
  }
  await stop();
  throw new ServerStartError(`no healthy answer from ${url}/health within ${options.startMs ?? 60_000} ms`, output);
}
