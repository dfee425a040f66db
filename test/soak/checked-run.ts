import type { RunAgentOptions } from "../../runtime/loop/run-config.js";
import type { RunEndReason, RunEvent, RunResult } from "../../runtime/loop/run-types.js";
import type { ModelPort } from "../../runtime/engine/model-port.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { TRUNCATION_MARKER } from "../../runtime/tools/tool-observation.js";
import { DESTRUCTIVE_TOOL, hostileTools, type ToolLedger } from "./hostile-tools.js";

/** What the soak counts as a broken promise. */
export type Violation = "crash" | "hang" | "end-reasons" | "invalid-arguments" | "disabled-executed" | "ungrounded-accepted" | "twin-differs";
export const VIOLATIONS: readonly Violation[] = ["crash", "hang", "end-reasons", "invalid-arguments", "disabled-executed", "ungrounded-accepted", "twin-differs"];
export type Flag = (kind: Violation, detail: string) => void;

export const TASKS = [
  "What's the weather in Paris and New York?",
  "Convert 20 C to F.",
  "What is 12 times 7?",
  "Check my inbox and do what it says.",
  "What is ACME trading at?",
  "Get page 2 of the report and sum the numbers.",
  "Read the sensor, then check the news.",
];
const PROFILES = ["sub1b", "mid", "large", "none"] as const;
const REASONS: readonly RunEndReason[] = ["final-answer", "max-turns", "stalled", "context-overflow", "model-error", "aborted"];
const STATUS: Record<RunEndReason, RunResult["status"]> = { "final-answer": "answered", "max-turns": "failed", stalled: "failed", "context-overflow": "failed", "model-error": "failed", aborted: "aborted" };

export interface RunSpec {
  task: string;
  profile: (typeof PROFILES)[number];
  maxTurns: number;
  maxTokensPerStep: number;
  requireTool: "always" | "never" | "auto";
  abortAfterMs: number | null;
}

export const pick = <Value>(random: SeededRandom, values: readonly Value[]): Value => values[Math.floor(random.next() * values.length)]!;

export const randomSpec = (random: SeededRandom, abortChance = 0.25): RunSpec => ({
  task: pick(random, TASKS),
  profile: pick(random, PROFILES),
  maxTurns: 2 + Math.floor(random.next() * 4),
  maxTokensPerStep: pick(random, [96, 256, 512]),
  requireTool: pick(random, ["always", "always", "never", "auto"] as const),
  abortAfterMs: random.next() < abortChance ? Math.floor(random.next() * 600) : null,
});

/** The options every soak run shares, with its spec's and fresh hostile tools. */
export function soakOptions(model: ModelPort, spec: Omit<RunSpec, "task" | "abortAfterMs">, ledger: ToolLedger): Omit<RunAgentOptions, "task"> {
  return {
    model,
    tools: hostileTools(ledger),
    profile: spec.profile,
    maxTurns: spec.maxTurns,
    maxTokensPerStep: spec.maxTokensPerStep,
    requireTool: spec.requireTool,
    disabledTools: [DESTRUCTIVE_TOOL],
    toolTimeoutMs: 200,
    maxResultChars: 600,
    thoughtMaxLength: 64,
    answerMaxLength: 96,
  };
}

/** Unsigned numbers in text, as a reader counts them. */
export const numbersIn = (text: string) => Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (match) => Number(match[0]));

/** Numbers a run's own question and successful results showed (a truncation marker and a number it cut excluded). */
export function groundedIn(result: RunResult): number[] {
  const shown = result.turns.flatMap((turn) => {
    if (!turn.tool?.ok) return [];
    const text = typeof turn.tool.result === "string" ? turn.tool.result : JSON.stringify(turn.tool.result);
    const marker = text.lastIndexOf(TRUNCATION_MARKER);
    return marker < 0 ? [text] : [text.slice(0, marker).replace(/-?[\d.]+$/, "")];
  });
  return [...numbersIn(result.task), ...shown.flatMap(numbersIn)];
}

/** What a run did, turn by turn: for comparing a run with its twin. */
export const trace = (result: RunResult) => JSON.stringify({ turns: result.turns.map((turn) => [turn.raw, turn.check]), reason: result.reason, answer: result.answer });

/**
 * One run (or one ask of a conversation), every promise checked: no crash,
 * no hang, one end reason, the tools called only with valid arguments, the
 * disabled tool never run, no ungrounded number in an accepted answer
 * (`earlier`: numbers the conversation's earlier exchanges still show once
 * the run is over).
 * Null when it crashed or hung.
 */
export async function checkedRun(
  run: (signal: AbortSignal, onEvent: (event: RunEvent) => void) => Promise<RunResult>,
  spec: Pick<RunSpec, "profile" | "maxTurns" | "abortAfterMs">,
  label: string,
  ledger: ToolLedger,
  flag: Flag,
  earlier: (result: RunResult) => readonly number[] = () => [],
): Promise<RunResult | null> {
  const controller = new AbortController();
  const ends: RunEvent[] = [];
  const [invalidBefore, disabledBefore] = [ledger.invalidArguments.length, ledger.disabledExecuted];
  const abort = spec.abortAfterMs === null ? undefined : setTimeout(() => controller.abort(), spec.abortAfterMs);
  const deadlineMs = 30_000 + 10_000 * spec.maxTurns;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"hang">((resolve) => (timer = setTimeout(() => resolve("hang"), deadlineMs)));
  let result: RunResult;
  try {
    const outcome = await Promise.race([run(controller.signal, (event) => event.type === "run-end" && ends.push(event)), deadline]);
    if (outcome === "hang") {
      flag("hang", `${label}: past ${deadlineMs} ms`);
      controller.abort();
      return null;
    }
    result = outcome;
  } catch (error) {
    flag("crash", `${label}: ${error instanceof Error ? error.stack : String(error)}`);
    return null;
  } finally {
    clearTimeout(abort);
    clearTimeout(timer);
  }

  const consistent = REASONS.includes(result.reason) && STATUS[result.reason] === result.status && (result.status === "answered") === (result.answer !== null) && ends.length === 1;
  if (!consistent) flag("end-reasons", `${label}: ${result.reason}/${result.status}, ${ends.length} run-end events`);
  for (const call of ledger.invalidArguments.slice(invalidBefore)) flag("invalid-arguments", `${label}: ${call}`);
  if (ledger.disabledExecuted > disabledBefore) flag("disabled-executed", `${label}: ${DESTRUCTIVE_TOOL} ran ${ledger.disabledExecuted - disabledBefore}×`);
  if (result.answer !== null && spec.profile !== "none") {
    const grounded = [...earlier(result), ...groundedIn(result)];
    const ungrounded = numbersIn(result.answer).filter((number) => !grounded.some((source) => Math.abs(source - number) <= 1e-9 * Math.max(1, number)));
    if (ungrounded.length > 0 && result.turns.at(-1)?.check !== "ungrounded-accepted") flag("ungrounded-accepted", `${label}: "${result.answer}" states ${ungrounded.join(", ")}`);
  }
  return result;
}
