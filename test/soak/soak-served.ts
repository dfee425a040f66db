import { runAgent } from "../../runtime/loop/run-agent.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import type { LlamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { startLlamaServer, type RunningServer } from "../../runtime/backends/served/llama-server-process.js";
import { connectServer } from "../../runtime/backends/served/remote-model.js";
import type { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { checkedRun, pick, randomSpec, soakOptions, trace, type Flag } from "./checked-run.js";
import type { ToolLedger } from "./hostile-tools.js";

export interface ServedOutcome {
  results: RunResult[];
  /** Turns sent again on another server after theirs failed. */
  failovers: number;
  /** What was done to the group: "kill", "stall" or "none". */
  chaos: "kill" | "stall" | "none";
}

/** Short limits, so a stalled server is found out within a second or two. */
const LIMITS = { answerMs: 5000, idleMs: 1500, connectMs: 5000, probeMs: 300, maxProbeMs: 2000 };

/**
 * Runs on a group of 2–3 llama-servers (one slot each, so a run there is
 * exact) serving `local`'s model, one of which is killed (SIGKILL) or stalled
 * (SIGSTOP, resumed 2 s later) at a random moment; each run is checked, and
 * each run not aborted must equal its twin in process (every token sampled,
 * as a server does), failover or not.
 */
export async function soakServed(local: LlamaModelPort, binary: string, random: SeededRandom, runs: number, label: string, flag: Flag): Promise<ServedOutcome> {
  const contextSize = local.description.contextSize!;
  const servers: RunningServer[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    for (let count = 2 + Math.floor(random.next() * 2); servers.length < count; ) {
      servers.push(await startLlamaServer({ model: local.opened.file, binary, slots: 1, slotContext: contextSize }));
    }
    const model = await connectServer(servers.map((server) => server.url), { ...LIMITS, minSlotContext: Math.min(1024, contextSize) });
    try {
      const chaos = pick(random, ["kill", "kill", "stall", "none"] as const);
      const victim = pick(random, servers);
      if (chaos !== "none") {
        timers.push(setTimeout(() => {
          victim.process.kill(chaos === "kill" ? "SIGKILL" : "SIGSTOP");
          if (chaos === "stall") timers.push(setTimeout(() => victim.process.kill("SIGCONT"), 2000));
        }, 50 + Math.floor(random.next() * 800)));
      }
      const specs = Array.from({ length: runs }, () => randomSpec(random, 0.15));
      const ledgers: ToolLedger[] = specs.map(() => ({ invalidArguments: [], disabledExecuted: 0 }));
      const outcomes = await Promise.all(
        specs.map((spec, index) =>
          checkedRun((signal, onEvent) => runAgent({ ...soakOptions(model, spec, ledgers[index]!), task: spec.task, signal, onEvent }), spec, `${label} served #${index + 1} (${chaos})`, ledgers[index]!, flag),
        ),
      );
      const results = outcomes.filter((result): result is RunResult => result !== null);
      for (const [index, spec] of specs.entries()) {
        const served = outcomes[index];
        if (!served || spec.abortAfterMs !== null) continue;
        const ledger: ToolLedger = { invalidArguments: [], disabledExecuted: 0 };
        const twin = await runAgent({ ...soakOptions(local, spec, ledger), task: spec.task, jumpForward: "off" });
        if (trace(twin) !== trace(served)) flag("twin-differs", `${label} served (${chaos}): "${spec.task}" (${spec.profile}) ${trace(served).slice(0, 200)} vs ${trace(twin).slice(0, 200)}`);
      }
      const failovers = results.reduce((total, result) => total + result.turns.filter((turn) => turn.server?.failover).length, 0);
      return { results, failovers, chaos };
    } finally {
      await model.dispose();
    }
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const server of servers) {
      server.process.kill("SIGCONT");
      await server.stop();
    }
  }
}
