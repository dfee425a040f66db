import type { HistoryItem } from "../../base/chat-history.js";
import { expect } from "vitest";
import { groundedNumbers, isGrounded, numericLeaves } from "../../guards/facts/grounded-numbers.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import type { ModelSession } from "../../runtime/engine/model-port.js";

const REASONS = ["final-answer", "max-turns", "stalled", "model-error", "aborted"];

/**
 * How many tokens at the end of a prompt the next turn may render
 * differently: the model-turn opener, and the closing of the last item, which
 * a following model response or user note re-renders (Llama-2 merges
 * consecutive user turns; a template wrapper closes a function result one way
 * at the end of a prompt and another before the next message). Measured for a
 * prompt ending in a user message and one ending in a call with its result.
 */
export function rewritableTail(render: (history: HistoryItem[]) => readonly number[]): number {
  const call: HistoryItem = { type: "model", response: ["t", { type: "functionCall", name: "f", params: { a: 1 }, result: { b: 2 } }] };
  const bases: HistoryItem[][] = [
    [{ type: "system", text: "s" }, { type: "user", text: "x" }],
    [{ type: "system", text: "s" }, { type: "user", text: "x" }, call],
  ];
  return Math.max(
    ...bases.flatMap((base) => {
      const prompt = render(base);
      const continuations: HistoryItem[][] = [
        [...base, { type: "model", response: ["y"] }, { type: "user", text: "z" }],
        [...base, { type: "user", text: "z" }],
      ];
      return continuations.map((continuation) => {
        const next = render(continuation);
        let common = 0;
        while (common < prompt.length && prompt[common] === next[common]) common++;
        return prompt.length - common;
      });
    }),
  );
}

/** The full profile's promises (issue 4), checked on any run whatever the model did. */
export function expectGuardInvariants(
  result: RunResult,
  options: {
    maxTurns: number;
    prompts: ReadonlyArray<readonly number[]>;
    openerLength: number;
    /** Where in a prompt a format's template may render earlier text anew when the next prompt adds a user message (Qwen3's drops empty think blocks since the last one); default: nowhere before the opener. */
    rewritableFrom?: (prompt: readonly number[]) => number;
  },
): void {
  expect(REASONS).toContain(result.reason);
  expect(result.turns.length).toBeLessThanOrEqual(options.maxTurns);
  expect(result.status === "answered").toBe(result.answer !== null);
  if (result.status !== "answered") expect(result.answer).toBeNull();

  const banned = new Set<string>();
  let succeeded = false;
  const results: Array<{ check: "ok"; result: unknown }> = [];
  for (const turn of result.turns) {
    // A banned tool never comes back.
    for (const tool of banned) expect(turn.visible.tools, `turn ${turn.index}: ${tool} was banned`).not.toContain(tool);
    for (const decision of turn.guards) if (decision.kind === "ban") banned.add(decision.tool);
    // FinalAnswer is never offered before a tool succeeded, except as a forced final (tools off the table).
    if (result.toolRequired && !succeeded && turn.visible.final) expect(turn.visible.tools, `turn ${turn.index}`).toEqual([]);
    // No call with an ungrounded number is executed.
    if (turn.tool && (turn.check === "ok" || turn.check === "error")) {
      const grounded = groundedNumbers({ task: result.task, earlier: { tasks: [], calls: [] }, calls: results.map((entry) => ({ ...entry, evidence: entry.result, turn: 0, name: "", args: {}, key: "" })) });
      for (const number of numericLeaves(turn.tool!.args)) expect(isGrounded(number, grounded), `turn ${turn.index}: ${number} executed ungrounded`).toBe(true);
    }
    if (turn.tool && turn.check === "ok") {
      succeeded = true;
      results.push({ check: "ok", result: turn.tool!.result });
    }
  }

  // Guards append; they never rewrite: each prompt extends the previous one up to its model-turn opener.
  for (let index = 1; index < options.prompts.length; index++) {
    const before = options.prompts[index - 1]!;
    const after = options.prompts[index]!;
    let common = 0;
    while (common < before.length && common < after.length && before[common] === after[common]) common++;
    const floor = Math.min(before.length - options.openerLength, options.rewritableFrom?.(before) ?? Number.POSITIVE_INFINITY);
    expect(common, `prompt ${index + 1} rewrote earlier text`).toBeGreaterThanOrEqual(floor);
  }
}

/** A port whose sessions record each step's prompt (judgements, which have prompts of their own, left out): what the prefix invariant reads. */
export function recordingSteps<Port extends { openSession(signal?: AbortSignal): Promise<ModelSession> }>(port: Port, prompts: Array<readonly number[]>): Port {
  return Object.assign(Object.create(Object.getPrototypeOf(port) as object) as Port, port, {
    async openSession(signal?: AbortSignal): Promise<ModelSession> {
      const session = await port.openSession(signal);
      return {
        generate: (request) => {
          if (request.purpose?.kind !== "judgement") prompts.push(request.prompt);
          return session.generate(request);
        },
        close: () => session.close(),
      };
    },
  });
}
