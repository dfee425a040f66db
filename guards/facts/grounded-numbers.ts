import { groundingSources, type RunState } from "../run-state.js";

/**
 * Numeric provenance (G4; a call that succeeds is not thereby grounded: a
 * model will happily convert a temperature it made up): the legitimate
 * numbers are those in the task plus every number in what a successful
 * call returned and the model was shown (its evidence: text narrowgauge
 * wrote, such as a truncation marker, grounds nothing). Numbers in prose are read unsigned ("-5°C" and
 * "5 km" both contain 5), so the grounded set holds absolute values too.
 */
const NUMBER_IN_TEXT = /\d+(?:\.\d+)?/g;

export function numbersInText(text: string): number[] {
  return Array.from(text.matchAll(NUMBER_IN_TEXT), (match) => Number(match[0]));
}

/** Every number in a JSON value: numeric leaves, and numbers written inside strings. */
export function numbersInValue(value: unknown): number[] {
  if (typeof value === "number") return Number.isFinite(value) ? [value] : [];
  if (typeof value === "string") return numbersInText(value);
  if (Array.isArray(value)) return value.flatMap(numbersInValue);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(numbersInValue);
  return [];
}

/** Numeric leaves only: what a tool call's arguments carry. */
export function numericLeaves(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (Array.isArray(value)) return value.flatMap(numericLeaves);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(numericLeaves);
  return [];
}

export function groundedNumbers(state: Pick<RunState, "task" | "calls" | "earlier">): number[] {
  const sources = groundingSources(state);
  const numbers = [...sources.tasks.flatMap(numbersInText), ...sources.calls.flatMap((call) => numbersInValue(call.evidence))];
  return [...new Set(numbers.flatMap((number) => [number, Math.abs(number)]))].sort((left, right) => left - right);
}

/** Numeric equality, so 25 and 25.0 (and 0.1+0.2 and 0.3) match. */
export function isGrounded(number: number, grounded: readonly number[]): boolean {
  return grounded.some((candidate) => Math.abs(candidate - number) <= 1e-9 * Math.max(1, Math.abs(number)));
}
