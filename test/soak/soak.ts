import type { Llama } from "node-llama-cpp";
import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunEndReason, RunResult } from "../../runtime/loop/run-types.js";
import { llamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { checkedRun, pick, randomSpec, soakOptions, trace, VIOLATIONS, type Violation } from "./checked-run.js";
import type { ToolLedger } from "./hostile-tools.js";
import { soakConversation } from "./soak-conversation.js";
import { soakServed } from "./soak-served.js";

export { VIOLATIONS, type Violation };

/**
 * The adversarial soak: many runs of random-weight models against hostile
 * tools, random aborts, contexts from 1,024 tokens, 1–4 concurrent runs on
 * one handle, conversations of 10–40 asks, and runs on groups of
 * llama-servers one of which is killed or stalled mid-run; each run (each
 * ask) checked for the promises a user relies on.
 */
export interface SoakOptions {
  runs: number;
  seed: number;
  llama: Llama;
  /** The Llama-2 fixture's path, mixed in for a third of the handles; null to use built-in seeds only. */
  fixture: string | null;
  /** A llama-server binary: a fifth of the handles then serve their runs from a group of servers; null for none. */
  server: string | null;
  onProgress?: (line: string) => void;
}

export interface SoakReport {
  runs: number;
  handles: number;
  concurrentRuns: number;
  aborted: number;
  twinsCompared: number;
  /** Conversations, and the asks they held (each counted as a run). */
  conversations: number;
  asks: number;
  /** Runs on server groups, groups whose server was killed or stalled, and turns that failed over. */
  servedRuns: number;
  chaos: { kill: number; stall: number; none: number };
  failovers: number;
  /** Runs that answered, and runs whose first exchange fit (they did not end context-overflow before a step). */
  answered: number;
  fits: number;
  ms: number;
  reasons: Partial<Record<RunEndReason, number>>;
  violations: Record<Violation, string[]>;
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const random = new SeededRandom(options.seed);
  const report: SoakReport = {
    runs: 0, handles: 0, concurrentRuns: 0, aborted: 0, twinsCompared: 0, conversations: 0, asks: 0, servedRuns: 0, chaos: { kill: 0, stall: 0, none: 0 }, failovers: 0, answered: 0, fits: 0, ms: 0, reasons: {},
    violations: Object.fromEntries(VIOLATIONS.map((kind) => [kind, []])) as unknown as SoakReport["violations"],
  };
  const started = performance.now();
  const flag = (kind: Violation, detail: string) => report.violations[kind].push(detail);
  const count = (results: readonly RunResult[]) => {
    report.runs += results.length;
    for (const result of results) {
      report.reasons[result.reason] = (report.reasons[result.reason] ?? 0) + 1;
      if (result.status === "answered") report.answered++;
      if (result.turns.length > 0 || result.reason !== "context-overflow") report.fits++;
    }
  };

  while (report.runs < options.runs) {
    const left = options.runs - report.runs;
    const source = options.fixture && random.next() < 1 / 3 ? options.fixture : { tiny: 1 + Math.floor(random.next() * 1000) };
    const label = typeof source === "string" ? "llama2-fixture" : `tiny:${source.tiny}`;
    const kind = options.server && random.next() < 0.2 ? "served" : left >= 10 && random.next() < 0.15 ? "conversation" : "runs";
    const port = llamaModelPort(await openModel({ source, llama: options.llama, contextSize: pick(random, [1024, 2048, 4096]), sequences: 1 + Math.floor(random.next() * 4) }));
    report.handles++;
    try {
      if (kind === "served") {
        const outcome = await soakServed(port, options.server!, random, Math.min(1 + Math.floor(random.next() * 3), left), label, flag);
        count(outcome.results);
        report.servedRuns += outcome.results.length;
        report.chaos[outcome.chaos]++;
        report.failovers += outcome.failovers;
      } else if (kind === "conversation") {
        const results = await soakConversation(port, random, Math.min(10 + Math.floor(random.next() * 31), left), label, flag);
        count(results);
        report.conversations++;
        report.asks += results.length;
        report.aborted += results.filter((result) => result.reason === "aborted").length;
        if (results.length === 0) report.runs++;
      } else {
        await concurrentRuns(port, random, Math.min(1 + Math.floor(random.next() * 4), left), label, report, count, flag);
      }
    } finally {
      await port.dispose();
    }
    options.onProgress?.(`${report.runs}/${options.runs} runs, ${report.handles} handles, ${VIOLATIONS.reduce((sum, kind) => sum + report.violations[kind].length, 0)} violations`);
  }
  report.ms = performance.now() - started;
  return report;
}

/** 1–4 runs at once on one handle; each run not aborted must equal the same run alone (greedy). */
async function concurrentRuns(port: ReturnType<typeof llamaModelPort>, random: SeededRandom, concurrency: number, label: string, report: SoakReport, count: (results: readonly RunResult[]) => void, flag: (kind: Violation, detail: string) => void) {
  const specs = Array.from({ length: concurrency }, () => randomSpec(random));
  const run = (spec: (typeof specs)[number], name: string) => {
    const ledger: ToolLedger = { invalidArguments: [], disabledExecuted: 0 };
    return checkedRun((signal, onEvent) => runAgent({ ...soakOptions(port, spec, ledger), task: spec.task, signal, onEvent }), spec, name, ledger, flag);
  };
  const outcomes = await Promise.all(specs.map((spec, index) => run(spec, `${label} #${report.runs + index + 1}`)));
  count(outcomes.filter((outcome): outcome is RunResult => outcome !== null));
  report.runs += outcomes.filter((outcome) => outcome === null).length;
  if (concurrency > 1) report.concurrentRuns += concurrency;
  report.aborted += specs.filter((spec) => spec.abortAfterMs !== null).length;
  if (concurrency === 1) return;
  for (const [index, spec] of specs.entries()) {
    const concurrent = outcomes[index];
    if (spec.abortAfterMs !== null || !concurrent) continue;
    const alone = await run(spec, `${label} twin`);
    report.twinsCompared++;
    if (alone && trace(alone) !== trace(concurrent)) flag("twin-differs", `${label}: "${spec.task}" (${spec.profile})`);
  }
}
