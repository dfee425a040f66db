import type { ChatHistoryItem } from "node-llama-cpp";
import { callKey } from "../guards/canonical-args.js";
import { checkCall } from "../guards/check-call.js";
import { checkFinal } from "../guards/check-final.js";
import { PROFILES, profileForParameters, type GuardProfile, type ProfileName } from "../guards/profiles.js";
import type { CallAttempt, RunState } from "../guards/run-state.js";
import { describeIssues } from "../schemas/validator-cache.js";
import type { Tool } from "./define-tool.js";
import { askFreshness, gateFinalAnswer } from "./answer-gate.js";
import { interpretStep, invalidStepFeedback, type StepOutcome } from "./interpret-step.js";
import type { ModelPort, PortGeneration } from "./model-port.js";
import { callItem, DEFAULT_SYSTEM_PROMPT, documentedFunctions, feedbackItem, initialHistory, renderHistory } from "./native-history.js";
import { RunRecorder, TurnBuilder } from "./run-recorder.js";
import type { RunEvent, RunResult } from "./run-types.js";
import type { Sampling } from "./sampling.js";
import { RunAbortedSignal, ToolRegistry } from "./tool-registry.js";
import { prepareTurnInput, shownHistory, type TurnInput, type TurnInputContext } from "./turn-input.js";
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

function resolveProfile(option: RunAgentOptions["profile"], model: ModelPort): { name: ProfileName | "custom"; profile: GuardProfile } {
  if (typeof option === "object") return { name: "custom", profile: option };
  const name = option ?? (model.description.parameters ? profileForParameters(model.description.parameters) : "sub1b");
  return { name, profile: PROFILES[name] };
}

/**
 * Runs one task to a grounded answer or an honest failure. Each turn: the
 * guards read the run state and decide what is visible, the step schema and
 * grammar follow, the native history is rendered, one step is sampled, and
 * checks decide whether its call runs or its answer stands. Never throws for
 * anything the model or a tool does; configuration errors (duplicate tool
 * names) throw before the first turn.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const { model, task, signal, maxTurns = 8 } = options;
  const registry = new ToolRegistry(options.tools);
  const { name: profileName, profile } = resolveProfile(options.profile, model);
  const history: ChatHistoryItem[] = initialHistory(options.system ?? DEFAULT_SYSTEM_PROMPT, task);
  const context: TurnInputContext = {
    model, registry, history, profile, notesGiven: new Set(), historyMode: options.history ?? "native",
    functions: documentedFunctions(registry),
    stepOptions: { thoughtMaxLength: options.thoughtMaxLength, answerMaxLength: options.answerMaxLength },
  };
  const requirement = options.requireTool ?? "always";
  const state: RunState = {
    task, maxTurns, turn: 1, calls: [], finalRejections: 0, stalled: false, fresh: null, nudged: false,
    requireTool: profile.finalHidden && requirement === "always",
    disabled: options.disabledTools ?? [],
    tools: registry.names.map((name) => ({ ...registry.get(name)!, name })),
  };
  const run = new RunRecorder(task, model.description, { profile: profileName, requireTool: state.requireTool }, options.onEvent);
  run.emit({ type: "run-start", task, tools: registry.names, maxTurns, model: model.description });
  const judgeOptions = (turn: number) => ({ turn, sampling: options.sampling, signal, spy: options.spy });
  if (requirement === "auto" && profile.gate) {
    let freshness;
    try {
      freshness = await askFreshness(model, task, judgeOptions(0));
    } catch (error) {
      return run.end(signal?.aborted ? "aborted" : "model-error", { error });
    }
    run.judgement(freshness);
    // An unusable judgement counts as fresh: requiring a tool is the failure that invents nothing.
    state.fresh = freshness.value === null ? true : (freshness.value as boolean);
    state.requireTool = state.fresh && profile.freshness === "grammar";
    run.setup.requireTool = state.requireTool;
  }
  let gateBudget = options.gateBudget ?? 2;
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
    const visible = { tools: input.view.tools, final: input.view.final, enums: input.view.enums };
    const turn = new TurnBuilder(index, visible, input.decisions);
    turn.record.ms.grammar = input.ms.grammar;
    turn.record.ms.render = input.ms.render;
    if (options.spy) turn.record.spy = { prompt: model.detokenizeForSpy(input.prompt), tokens: input.prompt.length, grammar: input.gbnf };
    run.emit({ type: "turn-start", index, visible });

    let generation: PortGeneration;
    const request = { maxTokens: options.maxTokensPerStep ?? 1024, sampling: options.sampling, signal, context: { turn: index, visible } };
    try {
      generation = options.twoPhase
        ? await sampleTwoPhase(model, request, {
            ...input,
            render: ({ raw, ask }) => renderHistory(model, [...shownHistory(context), { type: "model", response: [raw] }, feedbackItem(ask)], context.functions),
          })
        : await model.generate({ ...request, prompt: input.prompt, gbnf: input.gbnf });
    } catch (error) {
      return run.end(signal?.aborted ? "aborted" : "model-error", { error });
    }
    turn.generation(generation);
    const outcome = interpretStep(generation, input.schema, registry);
    recordStep(turn, outcome);
    run.emit({ type: "step", index, raw: turn.record.raw, step: turn.record.step, failure: turn.record.failure });

    if (outcome.kind === "aborted") return run.end("aborted");
    if (outcome.kind === "invalid") {
      turn.record.check = "invalid";
      if (options.feedbackOnInvalid !== false) history.push(feedbackItem(invalidStepFeedback(outcome.error, input.view)));
    } else if (outcome.kind === "final") {
      const verdict = checkFinal(state, input.view, outcome.answer, { provenance: profile.provenance !== "off" });
      turn.record.check = verdict.check;
      if (verdict.ungrounded.length > 0) turn.record.ungrounded = verdict.ungrounded;
      let note = verdict.note;
      if (verdict.check === "ok" || verdict.check === "ungrounded-accepted") {
        const gate = profile.gate && index < maxTurns && !input.view.forcedFinal;
        const outcomeOfGate = gate
          ? await gateFinalAnswer({
              model, question: task, draft: outcome.answer, fresh: state.fresh, budgetLeft: gateBudget,
              toolSucceeded: state.calls.some((call) => call.check === "ok"),
              judge: judgeOptions(index), onJudgement: (judgement) => run.judgement(judgement),
            }).catch((error: unknown) => ({ action: "error" as const, error }))
          : ({ action: "accept", decisions: [] } as const);
        if (outcomeOfGate.action === "error") return run.end(signal?.aborted ? "aborted" : "model-error", { error: outcomeOfGate.error });
        turn.record.guards.push(...outcomeOfGate.decisions);
        if (outcomeOfGate.action === "accept") {
          run.commit(turn);
          const unverified = !state.calls.some((call) => call.check === "ok") && (requirement === "always" || state.fresh === true);
          return run.end("final-answer", { answer: outcome.answer, ungrounded: verdict.ungrounded, unverified });
        }
        gateBudget--;
        state.nudged = true;
        turn.record.check = "nudged";
        note = outcomeOfGate.nudge;
      }
      // The draft is not appended: a model shown its own answer writes it again (seed 000). The note is.
      if (verdict.check === "ungrounded") state.finalRejections++;
      history.push(feedbackItem(note!));
    } else {
      const attempt = await actOnCall(outcome, turn, state, input, options, registry, run, profile);
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

/** Checks a call (visibility, narrowed domains, repeats, provenance), runs it if they pass, and records the attempt. */
async function actOnCall(
  outcome: Extract<StepOutcome, { kind: "call" | "bad-arguments" }>,
  turn: TurnBuilder,
  state: RunState,
  input: TurnInput,
  options: RunAgentOptions,
  registry: ToolRegistry,
  run: RunRecorder,
  profile: GuardProfile,
): Promise<CallAttempt | "aborted"> {
  const base = { turn: state.turn, name: outcome.name, args: outcome.args, key: callKey(outcome.name, outcome.args) };
  let attempt: CallAttempt;
  if (outcome.kind === "bad-arguments") {
    attempt = { ...base, check: "bad-arguments", result: { error: `invalid arguments for ${outcome.name}: ${describeIssues(outcome.issues)}` } };
  } else {
    const verdict = checkCall(state, input.view, outcome, { repeats: profile.repeats !== "off", provenance: profile.provenance !== "off" });
    if (verdict.check !== "ok") {
      attempt = { ...base, check: verdict.check, result: verdict.result };
    } else {
      run.emit({ type: "tool-start", index: state.turn, name: outcome.name, args: outcome.args });
      try {
        const observation = await turn.timeAsync("tool", () =>
          registry.execute(outcome.name, outcome.args, {
            signal: options.signal ?? new AbortController().signal,
            turn: state.turn,
            timeoutMs: options.toolTimeoutMs ?? 10_000,
            maxResultChars: options.maxResultChars ?? 2000,
          }),
        );
        attempt = { ...base, check: observation.ok ? "ok" : "error", result: observation.result };
      } catch (error) {
        if (error instanceof RunAbortedSignal) return "aborted";
        throw error;
      }
    }
    if (verdict.repeatOf !== undefined && attempt.check !== "repeat") attempt.repeatOf = verdict.repeatOf;
  }
  turn.record.check = attempt.check;
  turn.record.tool = { name: attempt.name, args: attempt.args, ok: attempt.check === "ok", result: attempt.result };
  run.emit({ type: "tool-end", index: state.turn, tool: turn.record.tool });
  return attempt;
}

function recordStep(turn: TurnBuilder, outcome: StepOutcome): void {
  if (outcome.kind === "final" || outcome.kind === "call") turn.record.step = outcome.step;
  if (outcome.kind === "invalid" || outcome.kind === "bad-arguments") {
    turn.record.failure = { code: outcome.error.code, message: outcome.error.message };
  }
}
