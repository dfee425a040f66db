import { parentPort, workerData } from "node:worker_threads";
import { judgeSchema } from "./judge-schema.js";
import { readMaskbenchFile } from "./maskbench-data.js";
import { ENGINES } from "./maskbench-engines.js";
import type { WorkerReply, WorkerRequest, WorkerSettings } from "./judge-pool.js";

/** One worker thread of judge-pool.ts: reads a data file, judges its schema, replies; killed from outside when it takes too long. */
const settings = workerData as WorkerSettings;
const port = parentPort!;
const engine = ENGINES[settings.engine];

port.on("message", async ({ name }: WorkerRequest) => {
  const deadline = performance.now() + settings.timeoutMs;
  let reply: WorkerReply;
  try {
    const file = await readMaskbenchFile(settings.folder, name);
    reply = { name, judgement: judgeSchema(file.schema as object, file.tests, engine, { deadline, keepGrammar: settings.keepGrammar }) };
  } catch (error) {
    // judgeSchema catches what narrowgauge throws; this is the data file itself (unreadable, not JSON).
    reply = { name, judgement: { outcome: "untyped-error", error: { stage: "worker", name: (error as Error).name, message: (error as Error).message }, instances: [], validRefused: 0, invalidAccepted: 0 } };
  }
  port.postMessage(reply);
});
port.postMessage("ready");
