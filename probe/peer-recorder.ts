import type { ModelDescription, RunEndReason, RunEvent, RunResult, TurnRecord } from "../index.js";

const STATUS: Record<RunEndReason, RunResult["status"]> = { "final-answer": "answered", "max-turns": "failed", stalled: "failed", "context-overflow": "failed", "model-error": "failed", aborted: "aborted" };

/**
 * Records the peer loop's turns in runAgent's result shape, so the probe
 * scores every architecture with one scorer. Written against the public
 * types only, as any user comparing their own loop would.
 */
export class PeerRecorder {
  private readonly turns: TurnRecord[] = [];
  private readonly started = performance.now();
  private readonly turnStarted = new Map<TurnRecord, number>();

  constructor(private readonly task: string, private readonly model: ModelDescription, private readonly onEvent?: (event: RunEvent) => void) {}

  startTurn(index: number, tools: string[]): TurnRecord {
    const turn: TurnRecord = {
      index, visible: { tools, final: true, enums: {} }, guards: [], check: null, prompt: { tokens: 0, evaluated: 0, appended: null }, raw: "", step: null, failure: null, tool: null, generatedTokens: 0, decoding: { evaluations: 0, forcedTokens: 0 },
      ms: { render: 0, grammar: 0, prompt: 0, sampling: 0, tool: 0, total: 0 },
    };
    this.turnStarted.set(turn, performance.now());
    return turn;
  }

  commit(turn: TurnRecord): void {
    turn.ms.total = performance.now() - (this.turnStarted.get(turn) ?? this.started);
    this.turns.push(turn);
    this.emit({ type: "turn-end", turn });
  }

  end(reason: RunEndReason, details: { answer?: string; error?: unknown } = {}): RunResult {
    const status = STATUS[reason];
    const sum = (pick: (turn: TurnRecord) => number) => this.turns.reduce((total, turn) => total + pick(turn), 0);
    const fetched = [...new Set(this.turns.flatMap((turn) => (turn.tool?.ok ? [`${turn.tool.name}(${JSON.stringify(turn.tool.args)}) returned ${JSON.stringify(turn.tool.result)}`] : [])))];
    const error = details.error;
    const record = {
      task: this.task, reason, profile: "none" as const, codec: "node-llama-cpp" as const, toolRequired: false, judgements: [], turns: this.turns, dropped: [],
      // node-llama-cpp documents every tool it is given; what a turn offered is on the turn.
      tools: { shown: [...new Set(this.turns.flatMap((turn) => turn.visible.tools))], left: [], compact: false, minimal: [], promptTokens: this.turns[0]?.prompt.tokens ?? null, budget: null },
      model: this.model,
      tokens: { prompt: sum((turn) => turn.prompt.tokens), evaluated: sum((turn) => turn.prompt.evaluated), generated: sum((turn) => turn.generatedTokens) },
      ms: { total: performance.now() - this.started, render: 0, grammar: 0, prompt: 0, sampling: sum((turn) => turn.ms.sampling), tool: sum((turn) => turn.ms.tool), judgements: 0 },
    };
    const result: RunResult =
      status === "answered"
        ? { ...record, status, reason: "final-answer", answer: details.answer ?? "", partialAnswer: null, ungroundedNumbers: [], ungroundedNames: [], unverified: false, error: null }
        : {
            ...record, status, answer: null, ungroundedNumbers: [], ungroundedNames: [], unverified: false,
            partialAnswer: fetched.length > 0 ? `No final answer. What the tools returned: ${fetched.join("; ")}.` : null,
            error: error === undefined ? null : { code: "generation-failed", message: error instanceof Error ? error.message : String(error) },
          };
    this.emit({ type: "run-end", result });
    return result;
  }

  private emit(event: RunEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // A throwing listener must not break the run it observes.
    }
  }
}
