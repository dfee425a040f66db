import type { Llama } from "node-llama-cpp";
import { withoutToolExits } from "../../cli/run-command.js";
import { weatherTools } from "../../demos/weather-tools.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { llamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { connectServer } from "../../runtime/backends/served/remote-model.js";
import type { ModelPort } from "../../runtime/engine/model-port.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunAgentOptions } from "../../runtime/loop/run-config.js";
import type { RunEndReason } from "../../runtime/loop/run-types.js";
import { mcpTools } from "../../runtime/mcp/mcp-tools.js";
import type { Tool } from "../../runtime/tools/define-tool.js";
import { startFakeServer } from "../helpers/fake-llama-server.js";
import { checkedRun, pick, randomSpec, VIOLATIONS, type Violation } from "./checked-run.js";
import { exitingTools, HOSTILITIES, hostileMcpServer, hostileStep, unprintableTools, type Hostility } from "./hostile-environment.js";

/** Beside the runs' own: a refusal that is not a typed NarrowgaugeError, and a run in process that a tool or an MCP server ended as model-error (a failing tool is an observation). */
export type EnvironmentViolation = Violation | "untyped-error" | "tool-ended-run";
export const ENVIRONMENT_VIOLATIONS: readonly EnvironmentViolation[] = [...VIOLATIONS, "untyped-error", "tool-ended-run"];

export interface EnvironmentReport {
  runs: number;
  /** Runs per hostility. */
  kinds: Record<Hostility, number>;
  /** How the runs ended; "refused" where the hostile MCP server's tools were refused before any run (a typed error, or nothing usable). */
  endings: Partial<Record<RunEndReason | "refused", number>>;
  violations: Record<EnvironmentViolation, string[]>;
  ms: number;
}

const TASKS = ["What's the weather in Paris?", "Read the sensor in New York.", "Check the inbox for Paris."];
/** How long connecting to a hostile MCP server and reading its tools may take. */
const MCP_DEADLINE_MS = 20_000;

const within = <T>(promise: Promise<T>, ms: number): Promise<T | "hang"> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<"hang">((resolve) => (timer = setTimeout(() => resolve("hang"), ms)))]).finally(() => clearTimeout(timer));
};

/**
 * The hostile-environment soak: `runs` runs, each against one hostility
 * (see HOSTILITIES), on the built-in model in process or on a stand-in
 * llama-server, each checked for the promises a user relies on (no crash,
 * no hang, exactly one end, no answer on a failed run) and every refusal a
 * typed NarrowgaugeError.
 */
export async function soakEnvironment(options: { runs: number; seed: number; llama: Llama; vocabulary: string; onProgress?: (line: string) => void }): Promise<EnvironmentReport> {
  const random = new SeededRandom(options.seed);
  const report: EnvironmentReport = {
    runs: 0,
    kinds: Object.fromEntries(HOSTILITIES.map((kind) => [kind, 0])) as EnvironmentReport["kinds"],
    endings: {},
    violations: Object.fromEntries(ENVIRONMENT_VIOLATIONS.map((kind) => [kind, []])) as unknown as EnvironmentReport["violations"],
    ms: 0,
  };
  const started = performance.now();
  const flag = (kind: EnvironmentViolation, detail: string) => report.violations[kind].push(detail);
  const ended = (ending: RunEndReason | "refused") => (report.endings[ending] = (report.endings[ending] ?? 0) + 1);
  let local: ReturnType<typeof llamaModelPort> | null = null;
  const ledger = { invalidArguments: [], disabledExecuted: 0 };

  const first = Math.floor(random.next() * HOSTILITIES.length);
  for (let index = 0; index < options.runs; index++) {
    // Every hostility in turn; each run's own stream for what its stand-ins do, so a run's timing (an abort, a hang) never changes what later runs meet.
    const kind = HOSTILITIES[(first + index) % HOSTILITIES.length]!;
    const own = new SeededRandom((options.seed * 100_003 + index) >>> 0);
    const spec = { ...randomSpec(own, 0.1), task: pick(own, TASKS) };
    const label = `${kind} #${index + 1}`;
    report.kinds[kind]++;
    report.runs++;
    const base = (model: ModelPort, tools: readonly Tool[]): Omit<RunAgentOptions, "signal" | "onEvent"> => ({
      model, tools, task: spec.task, profile: spec.profile, maxTurns: spec.maxTurns, maxTokensPerStep: spec.maxTokensPerStep, requireTool: spec.requireTool, toolTimeoutMs: 300, maxResultChars: 600, thoughtMaxLength: 48, answerMaxLength: 64,
    });
    const run = async (model: ModelPort, tools: readonly Tool[], wrap: <T>(work: () => Promise<T>) => Promise<T> = (work) => work()) => {
      const result = await checkedRun((signal, onEvent) => wrap(() => runAgent({ ...base(model, tools), signal, onEvent })), spec, label, ledger, flag);
      if (!result) return;
      ended(result.reason);
      // The built-in model in process does not fail: a model-error there came from a tool or an MCP server.
      if (model === local && result.reason === "model-error") flag("tool-ended-run", `${label}: ${result.error?.message}`);
    };
    if (index % 25 === 0 || !local) {
      await local?.dispose();
      local = llamaModelPort(await openModel({ source: { tiny: 1 + Math.floor(own.next() * 1000) }, llama: options.llama, contextSize: pick(own, [2048, 4096]), sequences: 1 }));
    }
    if (kind === "tool-unprintable") await run(local, unprintableTools(own));
    else if (kind === "tool-exit") await run(local, exitingTools(), withoutToolExits);
    else if (kind === "mcp-dies" || kind === "mcp-pages" || kind === "mcp-lies") {
      const mcp = await hostileMcpServer(kind, own);
      try {
        const listed = await within(mcpTools(mcp.client).then((set) => set.tools, (error: unknown) => error), MCP_DEADLINE_MS);
        if (listed === "hang") flag("hang", `${label}: reading the tool list took past ${MCP_DEADLINE_MS} ms`);
        else if (!Array.isArray(listed)) {
          if (!(listed instanceof NarrowgaugeError)) flag("untyped-error", `${label}: ${listed instanceof Error ? listed.stack : String(listed)}`);
          ended("refused");
        } else if (listed.length === 0) ended("refused");
        else await run(local, listed);
      } finally {
        await mcp.close();
      }
    } else {
      const behave = hostileStep(kind, own);
      const fake = await startFakeServer({ vocabulary: options.vocabulary, override: (path, body, response) => path === "/completion" && body.stream === true && (behave(response), true) });
      try {
        const connected = await connectServer(fake.url, { connectMs: 1000, answerMs: 1000, idleMs: 300 }).then((model) => ({ model }), (error: unknown) => ({ error }));
        if ("error" in connected) {
          if (!(connected.error instanceof NarrowgaugeError)) flag("untyped-error", `${label}: connect: ${String(connected.error)}`);
          ended("refused");
        } else {
          try {
            await run(connected.model, weatherTools as readonly Tool[]);
          } finally {
            await connected.model.dispose();
          }
        }
      } finally {
        await fake.close();
      }
    }
    options.onProgress?.(`${report.runs}/${options.runs} hostile-environment runs, ${ENVIRONMENT_VIOLATIONS.reduce((sum, kind) => sum + report.violations[kind].length, 0)} violations`);
  }
  await local?.dispose();
  report.ms = performance.now() - started;
  return report;
}
