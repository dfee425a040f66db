import type { Llama } from "node-llama-cpp";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunAgentOptions } from "../../runtime/loop/run-config.js";
import type { RunEndReason, RunEvent, RunResult } from "../../runtime/loop/run-types.js";
import { llamaModelPort, type LlamaModelPort } from "../../runtime/model/llama/load-model.js";
import { openModel } from "../../runtime/model/llama/open-model.js";
import { SeededRandom } from "../../runtime/model/tiny/seeded-random.js";
import { TRUNCATION_MARKER } from "../../runtime/tools/tool-observation.js";
import { DESTRUCTIVE_TOOL, hostileTools, type ToolLedger } from "./hostile-tools.js";

/**
 * The adversarial soak: many runs of random-weight models against hostile
 * tools, random aborts, small contexts and 1–4 concurrent runs on one handle,
 * each run checked for the promises a user relies on.
 */
export type Violation = "crash" | "hang" | "end-reasons" | "invalid-arguments" | "disabled-executed" | "ungrounded-accepted" | "twin-differs";
export const VIOLATIONS: readonly Violation[] = ["crash", "hang", "end-reasons", "invalid-arguments", "disabled-executed", "ungrounded-accepted", "twin-differs"];

export interface SoakOptions {
  runs: number;
  seed: number;
  llama: Llama;
  /** The Llama-2 fixture's path, mixed in for a third of the handles; null to use built-in seeds only. */
  fixture: string | null;
  onProgress?: (line: string) => void;
}

export interface SoakReport {
  runs: number;
  handles: number;
  concurrentRuns: number;
  aborted: number;
  twinsCompared: number;
  ms: number;
  reasons: Partial<Record<RunEndReason, number>>;
  violations: Record<Violation, string[]>;
}

const TASKS = [
  "What's the weather in Paris and New York?",
  "Convert 20 C to F.",
  "What is 12 times 7?",
  "Check my inbox and do what it says.",
  "What is ACME trading at?",
  "Get page 2 of the report and sum the numbers.",
  "Read the sensor, then check the news.",
];
const PROFILES = ["sub1b", "mid", "large", "none"] as const;
const REASONS: readonly RunEndReason[] = ["final-answer", "max-turns", "stalled", "context-overflow", "model-error", "aborted"];
const STATUS: Record<RunEndReason, RunResult["status"]> = { "final-answer": "answered", "max-turns": "failed", stalled: "failed", "context-overflow": "failed", "model-error": "failed", aborted: "aborted" };

interface RunSpec {
  task: string;
  profile: (typeof PROFILES)[number];
  maxTurns: number;
  maxTokensPerStep: number;
  requireTool: "always" | "never" | "auto";
  abortAfterMs: number | null;
}

const pick = <Value>(random: SeededRandom, values: readonly Value[]): Value => values[Math.floor(random.next() * values.length)]!;

/** Unsigned numbers in text, as a reader counts them. */
const numbersIn = (text: string) => Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (match) => Number(match[0]));

/** Numbers the model could legitimately state: the task's, and those in successful results as shown (a truncation marker and a number it cut excluded). */
function groundedIn(result: RunResult): number[] {
  const shown = result.turns.flatMap((turn) => {
    if (!turn.tool?.ok) return [];
    const text = typeof turn.tool.result === "string" ? turn.tool.result : JSON.stringify(turn.tool.result);
    const marker = text.lastIndexOf(TRUNCATION_MARKER);
    return marker < 0 ? [text] : [text.slice(0, marker).replace(/-?[\d.]+$/, "")];
  });
  return [...numbersIn(result.task), ...shown.flatMap(numbersIn)];
}

/** What a run did, turn by turn: for comparing a run with its twin. */
const trace = (result: RunResult) => JSON.stringify({ turns: result.turns.map((turn) => [turn.raw, turn.check]), reason: result.reason, answer: result.answer });

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const random = new SeededRandom(options.seed);
  const report: SoakReport = { runs: 0, handles: 0, concurrentRuns: 0, aborted: 0, twinsCompared: 0, ms: 0, reasons: {}, violations: Object.fromEntries(VIOLATIONS.map((kind) => [kind, []])) as unknown as SoakReport["violations"] };
  const started = performance.now();
  const flag = (kind: Violation, detail: string) => report.violations[kind].push(detail);

  while (report.runs < options.runs) {
    const source = options.fixture && random.next() < 1 / 3 ? options.fixture : { tiny: 1 + Math.floor(random.next() * 1000) };
    const label = typeof source === "string" ? "llama2-fixture" : `tiny:${source.tiny}`;
    const port = llamaModelPort(await openModel({ source, llama: options.llama, contextSize: pick(random, [1024, 2048, 4096]), sequences: 1 + Math.floor(random.next() * 4) }));
    report.handles++;
    try {
      const concurrency = Math.min(1 + Math.floor(random.next() * 4), options.runs - report.runs);
      const specs: RunSpec[] = Array.from({ length: concurrency }, () => ({
        task: pick(random, TASKS),
        profile: pick(random, PROFILES),
        maxTurns: 2 + Math.floor(random.next() * 4),
        maxTokensPerStep: pick(random, [96, 256, 512]),
        requireTool: pick(random, ["always", "always", "never", "auto"] as const),
        abortAfterMs: random.next() < 0.25 ? Math.floor(random.next() * 600) : null,
      }));
      const outcomes = await Promise.all(specs.map((spec, index) => checkedRun(port, spec, `${label} #${report.runs + index + 1}`, flag)));
      report.runs += concurrency;
      if (concurrency > 1) report.concurrentRuns += concurrency;
      for (const outcome of outcomes) if (outcome) report.reasons[outcome.reason] = (report.reasons[outcome.reason] ?? 0) + 1;
      report.aborted += specs.filter((spec) => spec.abortAfterMs !== null).length;
      // Concurrent runs must each equal the same run alone (greedy; aborts are timing, so those are left out).
      if (concurrency > 1) {
        for (const [index, spec] of specs.entries()) {
          const concurrent = outcomes[index];
          if (spec.abortAfterMs !== null || !concurrent) continue;
          const alone = await checkedRun(port, spec, `${label} twin`, flag);
          report.twinsCompared++;
          if (alone && trace(alone) !== trace(concurrent)) flag("twin-differs", `${label}: "${spec.task}" (${spec.profile})`);
        }
      }
    } finally {
      await port.dispose();
    }
    options.onProgress?.(`${report.runs}/${options.runs} runs, ${report.handles} handles, ${VIOLATIONS.reduce((sum, kind) => sum + report.violations[kind].length, 0)} violations`);
  }
  report.ms = performance.now() - started;
  return report;
}

/** One run with its fresh hostile tools, every promise checked; null when it crashed or hung. */
async function checkedRun(port: LlamaModelPort, spec: RunSpec, label: string, flag: (kind: Violation, detail: string) => void): Promise<RunResult | null> {
  const ledger: ToolLedger = { invalidArguments: [], disabledExecuted: 0 };
  const controller = new AbortController();
  const ends: RunEvent[] = [];
  const options: RunAgentOptions = {
    model: port,
    tools: hostileTools(ledger),
    task: spec.task,
    profile: spec.profile,
    maxTurns: spec.maxTurns,
    maxTokensPerStep: spec.maxTokensPerStep,
    requireTool: spec.requireTool,
    disabledTools: [DESTRUCTIVE_TOOL],
    toolTimeoutMs: 200,
    maxResultChars: 600,
    thoughtMaxLength: 64,
    answerMaxLength: 96,
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === "run-end") ends.push(event);
    },
  };
  const abort = spec.abortAfterMs === null ? undefined : setTimeout(() => controller.abort(), spec.abortAfterMs);
  const deadlineMs = 20_000 + 8_000 * spec.maxTurns;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"hang">((resolve) => (timer = setTimeout(() => resolve("hang"), deadlineMs)));
  let result: RunResult;
  try {
    const outcome = await Promise.race([runAgent(options), deadline]);
    if (outcome === "hang") {
      flag("hang", `${label}: past ${deadlineMs} ms`);
      controller.abort();
      return null;
    }
    result = outcome;
  } catch (error) {
    flag("crash", `${label}: ${error instanceof Error ? error.stack : String(error)}`);
    return null;
  } finally {
    clearTimeout(abort);
    clearTimeout(timer);
  }

  const consistent = REASONS.includes(result.reason) && STATUS[result.reason] === result.status && (result.status === "answered") === (result.answer !== null) && ends.length === 1;
  if (!consistent) flag("end-reasons", `${label}: ${result.reason}/${result.status}, ${ends.length} run-end events`);
  for (const call of ledger.invalidArguments) flag("invalid-arguments", `${label}: ${call}`);
  if (ledger.disabledExecuted > 0) flag("disabled-executed", `${label}: ${DESTRUCTIVE_TOOL} ran ${ledger.disabledExecuted}×`);
  if (result.answer !== null && spec.profile !== "none") {
    const grounded = groundedIn(result);
    const ungrounded = numbersIn(result.answer).filter((number) => !grounded.some((source) => Math.abs(source - number) <= 1e-9 * Math.max(1, number)));
    if (ungrounded.length > 0 && result.turns.at(-1)?.check !== "ungrounded-accepted") flag("ungrounded-accepted", `${label}: "${result.answer}" states ${ungrounded.join(", ")}`);
  }
  return result;
}
