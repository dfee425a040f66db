import type { RunAgentOptions } from "./run-config.js";
import type { RunResult } from "./run-types.js";
import { resultOf, runTurns } from "./run-turns.js";
import { openQuestionSession, startQuestion } from "./start-question.js";

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
  const question = await startQuestion(options);
  // A session of the run's own: concurrent runs never share a KV cache, and wait (abortably) when none is free.
  const session = await openQuestionSession(question);
  if (!session) return resultOf(question);
  try {
    return await runTurns({ ...question, session });
  } finally {
    session.close();
  }
}
