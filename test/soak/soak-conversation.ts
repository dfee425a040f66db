import { createAgentSession } from "../../runtime/loop/agent-session.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import type { ModelPort } from "../../runtime/engine/model-port.js";
import type { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { checkedRun, groundedIn, pick, randomSpec, soakOptions, TASKS, type Flag } from "./checked-run.js";
import type { ToolLedger } from "./hostile-tools.js";

/**
 * A conversation of `asks` questions in one session, each ask checked like
 * a run. An answer may state what earlier exchanges showed, as long as they
 * are still in the prompt: an exchange that left it (see `dropped`) grounds
 * nothing after. Returns the asks' results (a crashed or hung ask ends it).
 */
export async function soakConversation(model: ModelPort, random: SeededRandom, asks: number, label: string, flag: Flag): Promise<RunResult[]> {
  const ledger: ToolLedger = { invalidArguments: [], disabledExecuted: 0 };
  const spec = randomSpec(random, 0);
  const chat = createAgentSession(soakOptions(model, spec, ledger));
  // What each earlier exchange still in the prompt showed, oldest first.
  const kept: number[][] = [];
  const results: RunResult[] = [];
  try {
    for (let ask = 1; ask <= asks; ask++) {
      const task = pick(random, TASKS);
      const abortAfterMs = random.next() < 0.1 ? Math.floor(random.next() * 600) : null;
      const stillShown = (result: RunResult) => kept.slice(result.dropped.reduce((count, drop) => count + drop.tasks.length, 0)).flat();
      const result = await checkedRun((signal, onEvent) => chat.ask(task, { signal, onEvent }), { ...spec, abortAfterMs }, `${label} ask ${ask}`, ledger, flag, stillShown);
      if (!result) break;
      results.push(result);
      kept.splice(0, result.dropped.reduce((count, drop) => count + drop.tasks.length, 0));
      kept.push(groundedIn(result));
    }
  } finally {
    chat.close();
  }
  return results;
}
