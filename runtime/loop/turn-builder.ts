import type { CallAttempt, TurnFacts } from "../../guards/run-state.js";
import type { PortGeneration } from "../engine/model-port.js";
import type { TurnRecord } from "./run-types.js";

type Phase = keyof TurnRecord["ms"];

/**
 * Builds one turn's record while the turn runs, and the facts the guards
 * will read of it; phases are timed where they happen. Neither is seen by
 * anyone until the recorder commits the turn.
 */
export class TurnBuilder {
  readonly record: TurnRecord;
  /** The call the step made, run or refused. */
  attempt: CallAttempt | null = null;
  /** Whether the step was a FinalAnswer. */
  final = false;
  private readonly started = performance.now();

  constructor(index: number, visible: TurnRecord["visible"], guards: TurnRecord["guards"], private readonly notes: readonly string[], private readonly repeated: boolean) {
    this.record = {
      index,
      visible,
      guards: [...guards],
      check: null,
      prompt: { tokens: 0, evaluated: 0, appended: null },
      raw: "",
      step: null,
      failure: null,
      tool: null,
      generatedTokens: 0,
      decoding: { evaluations: 0, forcedTokens: 0 },
      ms: { render: 0, grammar: 0, prompt: 0, sampling: 0, tool: 0, total: 0 },
    };
  }

  time<Value>(phase: Phase, work: () => Value): Value {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.record.ms[phase] += performance.now() - started;
    }
  }

  async timeAsync<Value>(phase: Phase, work: () => Promise<Value>): Promise<Value> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.record.ms[phase] += performance.now() - started;
    }
  }

  generation(generation: PortGeneration): void {
    this.record.prompt = { ...generation.prompt, appended: this.record.prompt.appended };
    this.record.raw = generation.text;
    this.record.generatedTokens = generation.generatedTokens;
    this.record.decoding = { evaluations: generation.decodes ?? generation.generatedTokens, forcedTokens: generation.forcedTokens ?? 0 };
    this.record.ms.prompt += generation.ms.prompt;
    this.record.ms.sampling += generation.ms.sampling;
    if (generation.server) {
      const { url, failovers } = generation.server;
      this.record.server = {
        url,
        failover: failovers.length === 0 ? null : { from: failovers.map((failover) => failover.from), kinds: failovers.map((failover) => failover.kind), ms: failovers.at(-1)!.ms, evaluated: generation.prompt.evaluated },
      };
    }
  }

  close(): { record: TurnRecord; facts: TurnFacts } {
    this.record.ms.total = performance.now() - this.started;
    const facts: TurnFacts = Object.freeze({ index: this.record.index, check: this.record.check, call: this.attempt, final: this.final, notes: this.notes, repeated: this.repeated });
    return { record: this.record, facts };
  }
}
