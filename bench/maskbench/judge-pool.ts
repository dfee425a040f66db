import { Worker } from "node:worker_threads";
import type { SchemaJudgement } from "./judge-schema.js";
import type { EngineName } from "./maskbench-engines.js";

/**
 * Judges data files in worker threads, each schema under a hard time limit:
 * a schema that hangs the compiler, the validator or the matcher (all
 * synchronous) is stopped by terminating its worker, recorded as a timeout,
 * and a fresh worker takes the next file.
 */

export interface WorkerSettings {
  folder: string;
  engine: EngineName;
  /** Per schema; the judge stops between instances at this, the worker is terminated at this plus HARD_LIMIT_GRACE_MS. */
  timeoutMs: number;
  keepGrammar: boolean;
}

export interface PoolSettings extends WorkerSettings {
  workers: number;
}

export interface WorkerRequest {
  name: string;
}

export interface WorkerReply {
  name: string;
  judgement: SchemaJudgement;
}

export interface FileJudgement extends WorkerReply {
  /** Wall time from sending the file to the reply, milliseconds. */
  wallMs: number;
}

/** Past the judge's own deadline, how long a worker may go on before it is terminated (it may be inside one compile). */
const HARD_LIMIT_GRACE_MS = 2_000;
/** Heap per worker: a schema that needs more is reported, not allowed to take the machine. */
const WORKER_HEAP_MB = 4_096;

// Workers do not inherit tsx's loader: each registers it before importing the TypeScript entry.
const TSX_API = import.meta.resolve("tsx/esm/api");
const ENTRY = new URL("./judge-worker.ts", import.meta.url).href;
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)}).then(({ register }) => { register(); return import(${JSON.stringify(ENTRY)}); });`;

const failed = (stage: "worker", message: string, outcome: SchemaJudgement["outcome"] = "untyped-error"): SchemaJudgement => ({
  outcome,
  ...(outcome === "timeout" ? {} : { error: { stage, name: "WorkerError", message } }),
  instances: [],
  validRefused: 0,
  invalidAccepted: 0,
});

class Slot {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;

  constructor(private readonly settings: WorkerSettings) {}

  private start(): Promise<void> {
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: this.settings, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
    });
    return this.ready;
  }

  async judge(name: string): Promise<FileJudgement> {
    if (!this.worker) await this.start();
    else await this.ready;
    const worker = this.worker!;
    const sent = performance.now();
    const judgement = await new Promise<SchemaJudgement>((resolve) => {
      const settle = (result: SchemaJudgement, discard: boolean) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (discard) {
          this.worker = undefined;
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (reply: WorkerReply) => settle(reply.judgement, false);
      // An error the judge cannot catch: thrown outside it, or a promise rejected with nobody waiting (ajv's validator for an `$async` schema).
      const onError = (error: Error) => settle(failed("worker", `worker crashed (uncaught error or unhandled rejection): ${error.message}`), true);
      const onExit = (code: number) => settle(failed("worker", `worker exited with code ${code}`), true);
      const timer = setTimeout(() => settle(failed("worker", "", "timeout"), true), this.settings.timeoutMs + HARD_LIMIT_GRACE_MS);
      worker.on("message", onMessage);
      worker.once("error", onError);
      worker.once("exit", onExit);
      worker.postMessage({ name } satisfies WorkerRequest);
    });
    return { name, judgement, wallMs: performance.now() - sent };
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }
}

/** Every file judged, in the order given; `onJudged` sees each as it lands. */
export async function judgeFiles(names: readonly string[], settings: PoolSettings, onJudged?: (result: FileJudgement, done: number) => void): Promise<FileJudgement[]> {
  const results: FileJudgement[] = new Array(names.length);
  let next = 0;
  let done = 0;
  const slots = Array.from({ length: Math.max(1, Math.min(settings.workers, names.length)) }, () => new Slot(settings));
  await Promise.all(
    slots.map(async (slot) => {
      while (next < names.length) {
        const index = next++;
        results[index] = await slot.judge(names[index]!);
        onJudged?.(results[index]!, ++done);
      }
      await slot.close();
    }),
  );
  return results;
}
