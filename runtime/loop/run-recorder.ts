import { thrownMessage } from "../../base/thrown-message.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import type { TurnFacts } from "../../guards/run-state.js";
import type { Judgement } from "../judgements/ask-judgement.js";
import { everyTool, type ToolShortlist } from "../tools/tool-shortlist.js";
import type { ToolNames } from "../tools/tool-names.js";
import { eventWithOriginalNames } from "./original-names.js";
import type { RunConfig } from "./run-config.js";
import { MODEL_FAILURE_CODES, type DroppedExchanges, type ModelFailureCode, type RunEndReason, type RunEvent, type RunRecord, type RunResult, type RunStatus, type ToolCallRecord, type TurnRecord } from "./run-types.js";

/** An answer the checks let stand. */
export interface AcceptedAnswer {
  answer: string;
  /** A structured answer's value (runAgent's `answerSchema`). */
  output?: unknown;
  ungrounded: number[];
  ungroundedNames: string[];
  unverified: boolean;
}

/**
 * One entry of a question's log, appended once and never changed: a turn
 * that ran to its end (with the answer it gave, or the abort that stopped
 * its tool), or what kept the next turn from running: a stall (G9), a model
 * that could not be run, an abort.
 */
export type RunEntry =
  | { kind: "turn"; record: TurnRecord; facts: TurnFacts; answer?: AcceptedAnswer; aborted?: true }
  | { kind: "stalled"; guard: string }
  | { kind: "failure"; error: unknown }
  | { kind: "aborted" };

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
    return thrownMessage(error);
  } catch {
    return "the model failed with a value that cannot be printed";
  }
}

/**
 * A question's log, append-only: its entries (turns, and what stopped the
 * next one), the answer gate's judgements, the exchanges that left the
 * prompt. It streams events as entries come, and makes the result. Everything
 * the loop knows about the run so far, and how it ends, is derived from it.
 */
export class RunRecorder {
  private readonly entries: RunEntry[] = [];
  private readonly judgements: Judgement[] = [];
  private readonly dropped: DroppedExchanges[] = [];
  private readonly started = performance.now();

  constructor(
    private readonly config: Pick<RunConfig, "task" | "model" | "profileName" | "onEvent" | "codec" | "codecFallback" | "registry" | "requireTool">,
    /** The conversation's tools: how they are named for the model (records and events give the original names), and which the prompt shows. */
    private readonly tools?: { readonly registry: { readonly naming: ToolNames }; readonly shortlist: ToolShortlist },
    /** The question's turns before this log, as the guards read them: those a message list shows (a guarded step), read off it; none for a run. */
    private readonly before: readonly TurnFacts[] = [],
  ) {}

  /** How the tools are named for the model. */
  get naming(): ToolNames | undefined {
    return this.tools?.registry.naming;
  }

  emit(event: RunEvent): void {
    try {
      this.config.onEvent?.(this.naming ? eventWithOriginalNames(event, this.naming) : event);
    } catch {
      // A throwing listener must not break the run it observes.
    }
  }

  /** The log so far. */
  get log(): readonly RunEntry[] {
    return this.entries;
  }

  /** How many turns the question held before this log (those a guarded step's messages show). */
  get turnsBefore(): number {
    return this.before.length;
  }

  /** The turns so far, as the result shows them. */
  get turns(): TurnRecord[] {
    return this.entries.flatMap((entry) => (entry.kind === "turn" ? [entry.record] : []));
  }

  /** The turns so far, as the guards read them (those before this log first). */
  get factsSoFar(): readonly TurnFacts[] {
    return [...this.before, ...this.entries.flatMap((entry) => (entry.kind === "turn" ? [entry.facts] : []))];
  }

  get judgementsSoFar(): readonly Judgement[] {
    return this.judgements;
  }

  get calls(): ToolCallRecord[] {
    return this.turns.flatMap((turn) => (turn.tool ? [turn.tool] : []));
  }

  append(entry: RunEntry): void {
    this.entries.push(entry);
    if (entry.kind === "turn") this.emit({ type: "turn-end", turn: entry.record });
  }

  judgement(judgement: Judgement): void {
    this.judgements.push(judgement);
    this.emit({ type: "judgement", judgement });
  }

  /** Earlier exchanges left the prompt before a turn. */
  drop(record: DroppedExchanges): void {
    this.dropped.push(record);
  }

  /** The run's result, for the one reason it ended: an answer only from an accepted final; otherwise at most what the tools returned (G7). */
  result(reason: RunEndReason): RunResult {
    const last = this.entries.at(-1);
    const answered = reason === "final-answer" && last?.kind === "turn" ? last.answer : undefined;
    const failure = last?.kind === "failure" ? last.error : undefined;
    const result: RunResult = answered
      ? { ...this.record("final-answer"), status: "answered", reason: "final-answer", answer: answered.answer, ...(answered.output === undefined ? {} : { output: answered.output }), partialAnswer: null, ungroundedNumbers: answered.ungrounded, ungroundedNames: answered.ungroundedNames, unverified: answered.unverified, error: null }
      : {
          ...this.record(reason),
          status: STATUS[reason] as "failed" | "aborted",
          answer: null,
          partialAnswer: this.config.registry.partialAnswer(this.calls),
          ungroundedNumbers: [],
          ungroundedNames: [],
          unverified: false,
          error: failure === undefined || (reason !== "model-error" && reason !== "context-overflow") ? null : modelFailure(failure),
        };
    this.emit({ type: "run-end", result });
    return result;
  }

  /** The tokens of the turns and judgements so far: in their prompts, evaluated, generated. */
  tokens(): RunRecord["tokens"] {
    const items = [...this.turns, ...this.judgements];
    const sum = (pick: (item: { prompt: { tokens: number; evaluated: number }; generatedTokens: number }) => number) => items.reduce((total, item) => total + pick(item), 0);
    return { prompt: sum((item) => item.prompt.tokens), evaluated: sum((item) => item.prompt.evaluated), generated: sum((item) => item.generatedTokens) };
  }

  /** What every result holds: the turns, and the totals over turns and judgements. */
  private record(reason: RunEndReason): RunRecord {
    const turns = this.turns;
    const sum = (pick: (turn: TurnRecord) => number) => turns.reduce((total, turn) => total + pick(turn), 0);
    const sumJudgements = (pick: (judgement: Judgement) => number) => this.judgements.reduce((total, judgement) => total + pick(judgement), 0);
    return {
      task: this.config.task,
      reason,
      profile: this.config.profileName,
      codec: this.config.codec.name,
      ...(this.config.codecFallback ? { codecFallback: this.config.codecFallback } : {}),
      toolRequired: this.config.registry.requiresTool(this.config.requireTool, this.judgements),
      judgements: this.judgements,
      turns,
      dropped: this.dropped,
      tools: this.tools?.shortlist ?? everyTool([], null, null),
      model: this.config.model.description,
      tokens: this.tokens(),
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
