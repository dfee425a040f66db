import type { ModelSession } from "../model/model-port.js";
import { resolveRunConfig, type RunAgentOptions } from "./run-config.js";
import { createRunContext } from "./run-context.js";
import type { RunResult } from "./run-types.js";
import { endOnFailure, runTurns } from "./run-turns.js";

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: the
 * guards read the run state and decide what is visible, the step schema and
 * grammar follow, the native history is rendered, one step is sampled, and
 * checks decide whether its call runs or its answer stands. Never throws for
 * anything the model or a tool does; configuration errors (duplicate tool
 * names, an unknown profile, a schema the grammar cannot hold) throw before
 * any model call.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const context = createRunContext(resolveRunConfig(options));
  const { config, state, run } = context;
  run.emit({ type: "run-start", task: state.task, tools: context.registry.names, maxTurns: config.maxTurns, model: config.model.description });
  let session: ModelSession;
  try {
    // A session of the run's own: concurrent runs never share a KV cache, and wait (abortably) when none is free.
    session = await config.model.openSession(config.signal);
  } catch (error) {
    return endOnFailure(context, error);
  }
  context.session = session;
  try {
    return await runTurns(context);
  } finally {
    session.close();
  }
}
