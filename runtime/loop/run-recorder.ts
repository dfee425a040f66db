import { partialAnswer } from "../../guards/g7-honest-failure.js";
import type { TurnFacts } from "../../guards/run-state.js";
import type { Judgement } from "../gate/judge.js";
import type { ToolNames } from "../tools/tool-names.js";
import { eventWithOriginalNames, turnWithOriginalNames } from "./original-names.js";
import type { RunConfig } from "./run-config.js";
import { MODEL_FAILURE_CODES, type DroppedExchanges, type ModelFailureCode, type RunEndReason, type RunEvent, type RunRecord, type RunResult, type RunStatus, type ToolCallRecord, type TurnRecord } from "./run-types.js";
import { freshnessOf, toolRequired } from "./tool-requirement.js";
import type { TurnBuilder } from "./turn-builder.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

const STATUS: Record<RunEndReason, RunStatus> = {
  "final-answer": "answered",
  "max-turns": "failed",
  stalled: "failed",
  "context-overflow": "failed",
  "model-error": "failed",
  aborted: "aborted",
};

/** A model failure as data, its code from the closed set whatever the backend threw: a NarrowgaugeError's own code where the set has it, else "generation-failed". */
function modelFailure(error: unknown): { code: ModelFailureCode; message: string } {
  const message = describeFailure(error);
  const code = error instanceof NarrowgaugeError ? (MODEL_FAILURE_CODES as readonly string[]).find((known) => known === error.code) : undefined;
  return { code: (code as ModelFailureCode | undefined) ?? "generation-failed", message };
}

/** A thrown value's message, whatever was thrown (a port of the user's may reject with anything). */
function describeFailure(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "the model failed with a value that cannot be printed";
  }
}

/**
 * A question's records, append-only: its turns (as the result shows them and
 * as the guards read them) and the answer gate's judgements. It streams
 * events as they are recorded and ends the run with exactly one reason.
 * Everything the loop knows about the run so far is derived from these.
 */
export class RunRecorder {
  private readonly turns: TurnRecord[] = [];
  private readonly facts: TurnFacts[] = [];
  private readonly judgements: Judgement[] = [];
  private readonly dropped: DroppedExchanges[] = [];
  private readonly started = performance.now();
  private ended: RunResult | undefined;

  constructor(
    private readonly config: Pick<RunConfig, "task" | "model" | "profileName" | "profile" | "requireTool" | "onEvent" | "codec">,
    /** How the tools are named for the model; records and events give the original names. */
    private readonly naming?: ToolNames,
  ) {}

  emit(event: RunEvent): void {
    try {
      this.config.onEvent?.(this.naming ? eventWithOriginalNames(event, this.naming) : event);
    } catch {
      // A throwing listener must not break the run it observes.
    }
  }

  /** The turns so far, as the guards read them. */
  get factsSoFar(): readonly TurnFacts[] {
    return this.facts;
  }

  get judgementsSoFar(): readonly Judgement[] {
    return this.judgements;
  }

  get calls(): ToolCallRecord[] {
    return this.turns.flatMap((turn) => (turn.tool ? [turn.tool] : []));
  }

  judgement(judgement: Judgement): void {
    this.judgements.push(judgement);
    this.emit({ type: "judgement", judgement });
  }

  /** Earlier exchanges left the prompt before a turn. */
  drop(record: DroppedExchanges): void {
    this.dropped.push(record);
  }

  commit(turn: TurnBuilder): void {
    const { record, facts } = turn.close();
    const named = this.naming ? turnWithOriginalNames(record, this.naming) : record;
    this.turns.push(named);
    this.facts.push(facts);
    this.emit({ type: "turn-end", turn: named });
  }

  /** An answered run: the one way a run ends with an answer. */
  answer(details: { answer: string; ungrounded: number[]; ungroundedNames: string[]; unverified: boolean }): RunResult {
    return this.finish({
      ...this.record("final-answer"),
      status: "answered",
      reason: "final-answer",
      answer: details.answer,
      partialAnswer: null,
      ungroundedNumbers: details.ungrounded,
      ungroundedNames: details.ungroundedNames,
      unverified: details.unverified,
      error: null,
    });
  }

  /** A run that ends without an answer, with exactly one reason; the partial answer holds only tool results. */
  end(reason: Exclude<RunEndReason, "final-answer">, details: { error?: unknown } = {}): RunResult {
    return this.finish({
      ...this.record(reason),
      status: STATUS[reason] as "failed" | "aborted",
      answer: null,
      partialAnswer: partialAnswer(this.calls),
      ungroundedNumbers: [],
      ungroundedNames: [],
      unverified: false,
      error: details.error === undefined ? null : modelFailure(details.error),
    });
  }

  private finish(result: RunResult): RunResult {
    if (this.ended) return this.ended;
    this.ended = result;
    this.emit({ type: "run-end", result });
    return result;
  }

  /** What every result holds: the turns, and the totals over turns and judgements. */
  private record(reason: RunEndReason): RunRecord {
    const sum = (pick: (turn: TurnRecord) => number) => this.turns.reduce((total, turn) => total + pick(turn), 0);
    const sumJudgements = (pick: (judgement: Judgement) => number) => this.judgements.reduce((total, judgement) => total + pick(judgement), 0);
    return {
      task: this.config.task,
      reason,
      profile: this.config.profileName,
      codec: this.config.codec.name,
      requireTool: toolRequired(this.config, freshnessOf(this.judgements)),
      judgements: this.judgements,
      turns: this.turns,
      dropped: this.dropped,
      model: this.config.model.description,
      tokens: {
        prompt: sum((turn) => turn.prompt.tokens) + sumJudgements((judgement) => judgement.prompt.tokens),
        evaluated: sum((turn) => turn.prompt.evaluated) + sumJudgements((judgement) => judgement.prompt.evaluated),
        generated: sum((turn) => turn.generatedTokens) + sumJudgements((judgement) => judgement.generatedTokens),
      },
      ms: {
        total: performance.now() - this.started,
        render: sum((turn) => turn.ms.render),
        grammar: sum((turn) => turn.ms.grammar),
        prompt: sum((turn) => turn.ms.prompt),
        sampling: sum((turn) => turn.ms.sampling),
        tool: sum((turn) => turn.ms.tool),
        judgements: sumJudgements((judgement) => judgement.ms.render + judgement.ms.prompt + judgement.ms.sampling),
      },
    };
  }
}
