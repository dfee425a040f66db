import { DisposedError } from "node-llama-cpp";
import type { Judgement } from "../gate/judge.js";
import type { ModelDescription } from "../model/model-port.js";
import { partialAnswer } from "./partial-answer.js";
import type { ModelFailureCode, RunEndReason, RunEvent, RunRecord, RunResult, RunStatus, ToolCallRecord, TurnRecord } from "./run-types.js";
import type { TurnBuilder } from "./turn-builder.js";

const STATUS: Record<RunEndReason, RunStatus> = {
  "final-answer": "answered",
  "max-turns": "failed",
  stalled: "failed",
  "context-overflow": "failed",
  "model-error": "failed",
  aborted: "aborted",
};

const FAILURE_CODES = new Set<string>(["context-overflow", "script-exhausted", "grammar-rejected", "server-failed"]);

/** A model failure as data, its code from the closed set whatever the backend threw. */
function modelFailure(error: unknown): { code: ModelFailureCode; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && FAILURE_CODES.has(code)) return { code: code as ModelFailureCode, message };
  // node-llama-cpp's DisposedError: the model or its context was disposed while the run used it.
  if (error instanceof DisposedError) return { code: "model-disposed", message };
  return { code: "generation-failed", message };
}

/** Accumulates turns and totals, streams events, and ends the run with exactly one reason. */
export class RunRecorder {
  private readonly turns: TurnRecord[] = [];
  private readonly judgements: Judgement[] = [];
  private readonly started = performance.now();
  private ended: RunResult | undefined;

  constructor(
    private readonly task: string,
    private readonly model: ModelDescription,
    readonly setup: Pick<RunRecord, "profile" | "requireTool">,
    private readonly onEvent: ((event: RunEvent) => void) | undefined,
  ) {}

  emit(event: RunEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // A throwing listener must not break the run it observes.
    }
  }

  get calls(): ToolCallRecord[] {
    return this.turns.flatMap((turn) => (turn.tool ? [turn.tool] : []));
  }

  judgement(judgement: Judgement): void {
    this.judgements.push(judgement);
    this.emit({ type: "judgement", judgement });
  }

  commit(turn: TurnBuilder): void {
    const record = turn.close();
    this.turns.push(record);
    this.emit({ type: "turn-end", turn: record });
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
      task: this.task,
      reason,
      ...this.setup,
      judgements: this.judgements,
      turns: this.turns,
      model: this.model,
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
