import type { ChatHistoryItem } from "node-llama-cpp";
import { cachedGbnf } from "../schemas/grammar-cache.js";
import { buildStepSchema } from "../schemas/step-schema.js";
import { describeIssues } from "../schemas/validator-cache.js";
import type { Tool } from "./define-tool.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import type { ModelPort, PortGeneration } from "./model-port.js";
import { callItem, DEFAULT_SYSTEM_PROMPT, documentedFunctions, feedbackItem, initialHistory, renderHistory } from "./native-history.js";
import { RunRecorder, TurnBuilder } from "./run-recorder.js";
import type { RunEvent, RunResult, ToolCallRecord } from "./run-types.js";
import type { Sampling } from "./sampling.js";
import { RunAbortedSignal, ToolRegistry } from "./tool-registry.js";

export interface RunAgentOptions {
  /** The model: `await loadModel(…)`, or `scriptedModel(…)` from narrowgauge/testing. */
  model: ModelPort;
  tools: readonly Tool[];
  task: string;
  /** System prompt. Defaults to DEFAULT_SYSTEM_PROMPT. The wrapper appends the tool documentation. */
  system?: string;
  /** Turn budget. Defaults to 8. */
  maxTurns?: number;
  /** Whether steps carry a `thought` before the call (architecture C). Defaults to true. */
  thought?: boolean;
  /** Defaults to 200 code points. */
  thoughtMaxLength?: number;
  /** Defaults to 400 code points. */
  answerMaxLength?: number;
  /** Cap on tokens sampled per step. Defaults to 1024. */
  maxTokensPerStep?: number;
  /** Defaults to greedy. */
  sampling?: Sampling;
  /** Per-call tool timeout unless the tool sets its own. Defaults to 10 000 ms. */
  toolTimeoutMs?: number;
  /** Tool results whose JSON is longer are truncated with a marker. Defaults to 2000 characters. */
  maxResultChars?: number;
  /** Record the exact prompt and grammar of every turn (the prompt spy). Defaults to false. */
  spy?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

const sameTokens = (left: readonly number[], right: readonly number[]) =>
  left.length === right.length && left.every((token, index) => token === right[index]);

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: decide
 * what is visible, build the step schema and its grammar, render the native
 * history, sample one step, then act on it. Never throws for anything the
 * model or a tool does; configuration errors (duplicate tool names) throw
 * before the first turn.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const { model, task, signal, maxTurns = 8, thought = true } = options;
  const registry = new ToolRegistry(options.tools);
  const functions = documentedFunctions(registry);
  const history: ChatHistoryItem[] = initialHistory(options.system ?? DEFAULT_SYSTEM_PROMPT, task);
  const run = new RunRecorder(task, model.description, options.onEvent);
  run.emit({ type: "run-start", task, tools: registry.names, maxTurns, model: model.description });
  let previous: { prompt: readonly number[]; gbnf: string } | undefined;

  for (let index = 1; index <= maxTurns; index++) {
    if (signal?.aborted) return run.end("aborted");
    const visible = { tools: registry.names, final: true };
    const turn = new TurnBuilder(index, visible);
    run.emit({ type: "turn-start", index, visible });

    const schema = buildStepSchema({
      tools: visible.tools.map((name) => registry.get(name)!),
      final: visible.final,
      thought,
      thoughtMaxLength: options.thoughtMaxLength,
      answerMaxLength: options.answerMaxLength,
    });
    const gbnf = turn.time("grammar", () => cachedGbnf(schema));
    const prompt = turn.time("render", () => renderHistory(model, history, functions));
    // SPEC G9: an identical prompt and grammar would reproduce the previous output.
    if (previous && previous.gbnf === gbnf && sameTokens(previous.prompt, prompt)) return run.end("stalled");
    previous = { prompt, gbnf };
    if (options.spy) turn.record.spy = { prompt: model.detokenizeForSpy(prompt), tokens: prompt.length, grammar: gbnf };

    let generation: PortGeneration;
    try {
      generation = await model.generate({
        prompt,
        gbnf,
        maxTokens: options.maxTokensPerStep ?? 1024,
        sampling: options.sampling,
        signal,
        context: { turn: index, visible },
      });
    } catch (error) {
      return run.end(signal?.aborted ? "aborted" : "model-error", { error });
    }
    turn.generation(generation);
    const outcome = interpretStep(generation, schema, registry);
    recordStep(turn, outcome);
    run.emit({ type: "step", index, raw: turn.record.raw, step: turn.record.step, failure: turn.record.failure });

    if (outcome.kind === "aborted") return run.end("aborted");
    if (outcome.kind === "final") {
      run.commit(turn);
      return run.end("final-answer", { answer: outcome.answer });
    }
    if (outcome.kind === "invalid") {
      history.push(feedbackItem(invalidStepFeedback(outcome.error, visible)));
    } else {
      let call: ToolCallRecord;
      if (outcome.kind === "bad-arguments") {
        call = { name: outcome.name, args: outcome.args, ok: false, result: { error: `invalid arguments for ${outcome.name}: ${describeIssues(outcome.issues)}` } };
      } else {
        run.emit({ type: "tool-start", index, name: outcome.name, args: outcome.args });
        try {
          const observation = await turn.timeAsync("tool", () =>
            registry.execute(outcome.name, outcome.args, {
              signal: signal ?? new AbortController().signal,
              turn: index,
              timeoutMs: options.toolTimeoutMs ?? 10_000,
              maxResultChars: options.maxResultChars ?? 2000,
            }),
          );
          call = { name: outcome.name, args: outcome.args, ...observation };
        } catch (error) {
          if (!(error instanceof RunAbortedSignal)) throw error;
          run.commit(turn);
          return run.end("aborted");
        }
      }
      turn.record.tool = call;
      run.emit({ type: "tool-end", index, tool: call });
      history.push(callItem(outcome.step.thought, call.name, call.args, call.result));
    }
    run.commit(turn);
  }
  return run.end("max-turns");
}

function recordStep(turn: TurnBuilder, outcome: StepOutcome): void {
  if (outcome.kind === "final" || outcome.kind === "call") turn.record.step = outcome.step;
  if (outcome.kind === "invalid" || outcome.kind === "bad-arguments") {
    turn.record.failure = { code: outcome.error.code, message: outcome.error.message };
  }
}
