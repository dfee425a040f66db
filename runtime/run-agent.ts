import type { GuardProfile, ProfileName } from "../guards/profiles.js";
import type { Tool } from "./define-tool.js";
import { actOnCall } from "./act-on-call.js";
import { actOnFinal, judgeFreshness } from "./act-on-final.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import type { ModelPort, PortGeneration } from "./model-port.js";
import { callItem, feedbackItem, renderHistory } from "./native-history.js";
import { createRunContext, type RunContext } from "./run-context.js";
import { TurnBuilder } from "./run-recorder.js";
import type { RunEvent, RunResult } from "./run-types.js";
import type { Sampling } from "./sampling.js";
import { prepareTurnInput, shownHistory, type TurnInput } from "./turn-input.js";
import { sampleTwoPhase } from "./two-phase.js";

export interface RunAgentOptions {
  /** The model: `await loadModel(…)`, or `scriptedModel(…)` from narrowgauge/testing. */
  model: ModelPort;
  tools: readonly Tool[];
  task: string;
  /** System prompt. Defaults to DEFAULT_SYSTEM_PROMPT. The wrapper appends the tool documentation. */
  system?: string;
  /** Turn budget. Defaults to 8. */
  maxTurns?: number;
  /**
   * The guard profile: "sub1b" (the full stack), "mid", "large", "none"
   * (architecture B: no thought, no guards), or a custom GuardProfile.
   * Defaults to the profile for the model's parameter count (sub1b when unknown).
   */
  profile?: ProfileName | GuardProfile;
  /**
   * Whether the answer must rest on a tool result. "always": FinalAnswer
   * waits for a successful call (G2). "never". "auto": one constrained
   * question before the first step (A2) decides; a fresh question then
   * hides FinalAnswer (sub1b) or is checked by the verdict call (mid, large).
   * Defaults to "always".
   */
  requireTool?: "always" | "never" | "auto";
  /**
   * How past steps are shown: "native" (SPEC S2, the model's own function
   * calls and results) or "digest" (architecture A: one plain-text summary
   * rebuilt each turn). Defaults to "native"; "digest" exists to measure it.
   */
  history?: "native" | "digest";
  /** Architecture A's two calls per step: pick the tool, then fill its arguments. Defaults to false. */
  twoPhase?: boolean;
  /** Nudges the answer gate may send per run (A4). Defaults to 2. */
  gateBudget?: number;
  /** Tools documented to the model but never offered this run (A5). */
  disabledTools?: readonly string[];
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
  /** Append a one-line note after an unusable output. Defaults to true; without it the next prompt may repeat (SPEC G9 then escalates). */
  feedbackOnInvalid?: boolean;
  /** Record the exact prompt and grammar of every turn (the prompt spy). Defaults to false. */
  spy?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

const sameTokens = (left: readonly number[], right: readonly number[]) =>
  left.length === right.length && left.every((token, index) => token === right[index]);

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: the
 * guards read the run state and decide what is visible, the step schema and
 * grammar follow, the native history is rendered, one step is sampled, and
 * checks decide whether its call runs or its answer stands. Never throws for
 * anything the model or a tool does; configuration errors (duplicate tool
 * names) throw before the first turn.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const context = createRunContext(options);
  const { model, state, run, history, profile } = context;
  const { signal, maxTurns = 8 } = options;
  const failure = (error: unknown) => run.end(signal?.aborted ? "aborted" : "model-error", { error });
  run.emit({ type: "run-start", task: state.task, tools: context.registry.names, maxTurns, model: model.description });
  const freshness = await judgeFreshness(context);
  if (freshness) return failure(freshness.error);
  let previous: TurnInput | undefined;

  for (let index = 1; index <= maxTurns; index++) {
    if (signal?.aborted) return run.end("aborted");
    state.turn = index;
    let input = prepareTurnInput(context, state);
    state.nudged = false; // a nudge binds one turn
    // SPEC G9: an identical prompt and grammar would reproduce the previous output. Escalate once, then stop.
    if (previous && previous.gbnf === input.gbnf && sameTokens(previous.prompt, input.prompt)) {
      if (!profile.forcedFinal || input.view.forcedFinal) return run.end("stalled");
      state.stalled = true;
      input = prepareTurnInput(context, state);
    }
    previous = input;
    const turn = startTurn(context, input);

    let generation: PortGeneration;
    try {
      generation = await sampleStep(context, input);
    } catch (error) {
      return failure(error);
    }
    turn.generation(generation);
    const outcome = interpretStep(generation, input.schema, context.registry);
    recordStep(turn, outcome);
    run.emit({ type: "step", index, raw: turn.record.raw, step: turn.record.step, failure: turn.record.failure });

    if (outcome.kind === "aborted") return run.end("aborted");
    if (outcome.kind === "invalid") {
      turn.record.check = "invalid";
      if (options.feedbackOnInvalid !== false) history.push(feedbackItem(invalidStepFeedback(outcome.error, input.view)));
    } else if (outcome.kind === "final") {
      const action = await actOnFinal(context, outcome, turn, input);
      if (action.kind === "model-error") return failure(action.error);
      if (action.kind === "accept") {
        run.commit(turn);
        return run.end("final-answer", action);
      }
      history.push(feedbackItem(action.note));
    } else {
      const attempt = await actOnCall(context, outcome, turn, input);
      if (attempt === "aborted") {
        run.commit(turn);
        return run.end("aborted");
      }
      state.calls = [...state.calls, attempt];
      history.push(callItem(outcome.step.thought, attempt.name, attempt.args, attempt.result));
    }
    run.commit(turn);
  }
  return run.end("max-turns");
}

function startTurn(context: RunContext, input: TurnInput): TurnBuilder {
  const visible = { tools: input.view.tools, final: input.view.final, enums: input.view.enums };
  const turn = new TurnBuilder(context.state.turn, visible, input.decisions);
  turn.record.ms.grammar = input.ms.grammar;
  turn.record.ms.render = input.ms.render;
  if (context.options.spy) turn.record.spy = { prompt: context.model.detokenizeForSpy(input.prompt), tokens: input.prompt.length, grammar: input.gbnf };
  context.run.emit({ type: "turn-start", index: context.state.turn, visible });
  return turn;
}

/** One step from the model: one call under the step grammar, or architecture A's two. */
function sampleStep(context: RunContext, input: TurnInput): Promise<PortGeneration> {
  const { model, options, state } = context;
  const visible = { tools: input.view.tools, final: input.view.final };
  const request = { maxTokens: options.maxTokensPerStep ?? 1024, sampling: options.sampling, signal: options.signal, context: { turn: state.turn, visible } };
  if (!options.twoPhase) return model.generate({ ...request, prompt: input.prompt, gbnf: input.gbnf });
  return sampleTwoPhase(model, request, {
    ...input,
    render: ({ raw, ask }) => renderHistory(model, [...shownHistory(context), { type: "model", response: [raw] }, feedbackItem(ask)], context.functions),
  });
}

function recordStep(turn: TurnBuilder, outcome: StepOutcome): void {
  if (outcome.kind === "final" || outcome.kind === "call") turn.record.step = outcome.step;
  if (outcome.kind === "invalid" || outcome.kind === "bad-arguments") {
    turn.record.failure = { code: outcome.error.code, message: outcome.error.message };
  }
}
