import type { PortGeneration } from "../model/model-port.js";
import type { TurnRecord } from "./run-types.js";

type Phase = keyof TurnRecord["ms"];

/** Builds one turn's record; phases are timed where they happen. */
export class TurnBuilder {
  readonly record: TurnRecord;
  private readonly started = performance.now();

  constructor(index: number, visible: TurnRecord["visible"], guards: TurnRecord["guards"]) {
    this.record = {
      index,
      visible,
      guards: [...guards],
      check: null,
      prompt: { tokens: 0, evaluated: 0 },
      raw: "",
      step: null,
      failure: null,
      tool: null,
      generatedTokens: 0,
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
    this.record.prompt = generation.prompt;
    this.record.raw = generation.text;
    this.record.generatedTokens = generation.generatedTokens;
    this.record.ms.prompt += generation.ms.prompt;
    this.record.ms.sampling += generation.ms.sampling;
  }

  close(): TurnRecord {
    this.record.ms.total = performance.now() - this.started;
    return this.record;
  }
}
