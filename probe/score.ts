import type { RunResult } from "../index.js";
import { CITIES, cityWeather } from "../demos/weather-tools.js";
import { readAnswer, type ReadingContext } from "./attribution.js";
import type { Scenario } from "./scenario.js";

// The scorer reads numbers and compares calls with its own code, not the
// runtime's: it judges the runtime, so it must not share its mistakes.

/** Unsigned decimal numbers in text ("-5°C" reads as 5): what a reader would count as a stated number. */
const numbersInText = (text: string): number[] => Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (match) => Number(match[0]));

/** Every number in a JSON value, including numbers written inside its strings. */
function numbersInValue(value: unknown): number[] {
  if (typeof value === "number") return Number.isFinite(value) ? [value] : [];
  if (typeof value === "string") return numbersInText(value);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(numbersInValue);
  return [];
}

const sameNumber = (left: number, right: number) => Math.abs(left - right) <= 1e-9 * Math.max(1, Math.abs(left));
const isGrounded = (number: number, sources: readonly number[]) => sources.some((source) => sameNumber(number, source));

/** A call's identity: its name and its arguments as JSON with sorted keys. */
function callIdentity(name: string, args: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sorted) : value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).sort(([left], [right]) => (left < right ? -1 : 1)).map(([key, inner]) => [key, sorted(inner)])) : value;
  return `${name} ${JSON.stringify(sorted(args ?? {}))}`;
}

/**
 * How a run ended, judged by code, never by asking another model:
 * - "answered": a final answer whose every number comes from the task or a tool result;
 * - "invented": a final answer containing a number found in neither;
 * - "honest-failure": no answer (turns exhausted, stalled) — nothing invented;
 * - "error": the model failed or the run was aborted.
 */
export type EndedBy = "answered" | "honest-failure" | "invented" | "error";

export interface ProbeScore {
  solved: boolean;
  endedBy: EndedBy;
  turns: number;
  /** Tool calls that ran (succeeded or failed). */
  toolCalls: number;
  /** Steps that were unusable or carried arguments failing the tool's schema. */
  malformed: number;
  /** Tool names the model wrote that do not exist (possible only without a grammar). */
  inventedToolNames: string[];
  /** Calls or answers a guard refused: hidden, banned, outside the domain, ungrounded, nudged, incomplete, misattributed. */
  rejected: number;
  /** Numbers in the final answer found in neither the task nor any tool result. */
  ungroundedInFinal: number[];
  /** Known names (cities) the final answer states that neither the task nor any tool result names. */
  ungroundedNames: string[];
  /** Expected values said about the wrong subject ("16°C in Sydney" when 16 is Berlin's). */
  misattributed: number;
  /** Tool calls identical (name and canonical arguments) to an earlier one in the run. */
  repeats: number;
  tokens: { generated: number; evaluated: number };
  ms: number;
}

const REJECTED = new Set(["ungrounded", "banned", "outside-view", "hidden", "nudged", "incomplete", "misattributed"]);
const MALFORMED = new Set(["invalid", "bad-arguments"]);

/** The names the probe's tools know: the cities, with the other names users write for them. */
const KNOWN_NAMES: ReadingContext["names"] = CITIES.map((city) => ({
  name: city,
  aliases: Object.entries(cityWeather.aliases ?? {}).filter(([, value]) => value === city).map(([alias]) => alias),
}));

/** The task and every successful result, as text: what may ground a name. */
const groundingText = (result: Pick<RunResult, "task" | "turns">) => [result.task, ...result.turns.flatMap((turn) => (turn.tool?.ok ? [JSON.stringify(turn.tool.result)] : []))].join("\n");

/** How a strict reader reads an answer against the scenario's facts (see attribution.ts). */
export function readFinalAnswer(scenario: Pick<Scenario, "expect">, result: Pick<RunResult, "task" | "turns">, answer: string) {
  return readAnswer(answer, scenario.expect, { names: KNOWN_NAMES, grounding: groundingText(result) });
}

/** Numbers in the answer that neither the task nor any successful tool result contains. Recomputed here, independent of the runtime's own checks. */
export function ungroundedNumbers(result: Pick<RunResult, "task" | "turns">, answer: string): number[] {
  const sources = [
    ...numbersInText(result.task),
    ...result.turns.flatMap((turn) => (turn.tool?.ok ? numbersInValue(turn.tool.result) : [])),
  ].flatMap((number) => [number, Math.abs(number)]);
  return [...new Set(numbersInText(answer).filter((number) => !isGrounded(number, sources)))];
}

export function endedBy(result: RunResult): EndedBy {
  if (result.reason === "model-error" || result.reason === "aborted") return "error";
  if (result.answer === null) return "honest-failure";
  return ungroundedNumbers(result, result.answer).length > 0 ? "invented" : "answered";
}

export function scoreRun(scenario: Scenario, result: RunResult, extra: { inventedToolNames?: readonly string[] } = {}): ProbeScore {
  const ended = endedBy(result);
  const keys = result.turns.flatMap((turn) => (turn.tool ? [callIdentity(turn.tool.name, turn.tool.args)] : []));
  const repeats = keys.filter((key, index) => keys.indexOf(key) < index).length;
  // Solved, strictly: the answer states every expected fact about its own subject, attaches no expected value to
  // another subject, invents no number and no name, and leaves no pieces of names lying around. Without expected
  // facts the honest outcome is saying what could not be found: no answer, or one that states no number at all
  // (any number there is a value about something the user did not ask, or about nothing) and is otherwise clean.
  const reading = result.answer === null ? null : readFinalAnswer(scenario, result, result.answer);
  const clean = reading !== null && reading.misattributed === 0 && reading.ungroundedNames.length === 0 && reading.fragments.length === 0;
  const solved =
    scenario.expect.length > 0
      ? ended === "answered" && clean && reading.stated.every(Boolean)
      : (ended === "answered" && clean && result.answer!.trim() !== "" && !/\d/.test(result.answer!)) || ended === "honest-failure";
  return {
    solved,
    endedBy: ended,
    turns: result.turns.length,
    toolCalls: result.turns.filter((turn) => turn.tool && (turn.check === "ok" || turn.check === "error")).length,
    malformed: result.turns.filter((turn) => turn.check !== null && MALFORMED.has(turn.check)).length,
    inventedToolNames: [...(extra.inventedToolNames ?? [])],
    rejected: result.turns.filter((turn) => turn.check !== null && REJECTED.has(turn.check)).length,
    ungroundedInFinal: result.answer === null ? [] : ungroundedNumbers(result, result.answer),
    ungroundedNames: reading?.ungroundedNames ?? [],
    misattributed: reading?.misattributed ?? 0,
    repeats,
    tokens: { generated: result.tokens.generated, evaluated: result.tokens.evaluated },
    ms: result.ms.total,
  };
}
