import type { ModelSession } from "../engine/model-port.js";
import { checkGrammars } from "./check-grammars.js";
import { createConversation } from "./question.js";
import { resolveRunConfig, type RunAgentOptions } from "./run-config.js";
import { RunRecorder } from "./run-recorder.js";
import type { RunResult } from "./run-types.js";
import { endOnFailure, runTurns } from "./run-turns.js";

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: the
 * guards read the run state and decide what is visible, the step schema and
 * grammar follow, the native history is rendered, one step is sampled, and
 * checks decide whether its call runs or its answer stands. Never throws for
 * anything the model or a tool does; configuration errors (a tool definition
 * that does not hold together, duplicate tool names, an unknown profile, a
 * schema the grammar cannot hold, a grammar the model's llama.cpp refuses)
 * throw before any model call.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const config = resolveRunConfig(options);
  const conversation = createConversation(config);
  await checkGrammars(config, conversation.given);
  const recorder = new RunRecorder(config, conversation);
  recorder.emit({ type: "run-start", task: config.task, tools: conversation.registry.names, shortlist: conversation.shortlist, maxTurns: config.maxTurns, model: config.model.description, codec: config.codec.name, ...(config.codecFallback ? { codecFallback: config.codecFallback } : {}) });
  let session: ModelSession;
  try {
    // A session of the run's own: concurrent runs never share a KV cache, and wait (abortably) when none is free.
    session = await config.model.openSession(config.signal);
  } catch (error) {
    return endOnFailure({ config, recorder }, error);
  }
  try {
    return await runTurns({ config, conversation, recorder, session });
  } finally {
    session.close();
  }
}
