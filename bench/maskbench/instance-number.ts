import { parse } from "lossless-json";

/**
 * MaskBench writes each instance with Python's `json.dumps`, which keeps two
 * things JavaScript's JSON.parse loses: a float whose value is whole stays a
 * float (`12345.0`, not the integer `12345`), and an integer keeps every digit
 * (`9223372036854776001`, not the nearest double). Its labels depend on
 * both (`12345.0 is not of type 'integer'`). Read into JavaScript numbers,
 * such an instance turns into another one, and judging that one can count an
 * invalid instance as accepted.
 *
 * So an instance file is read losslessly: each number that JavaScript would
 * change becomes an InstanceNumber carrying the text Python writes for it,
 * which is what the grammar is asked to write; every other number stays a
 * plain number, whose JSON.stringify text Python reads as the same value.
 */
export class InstanceNumber {
  /** `text`: the number as json.dumps writes it; `value`: what JSON.parse reads from that text. */
  constructor(readonly text: string, readonly value: number) {}
}

const FLOAT_LEXEME = /[.eE]/;

/** A number's source text as the value Python's json module reads and writes it. */
export function readInstanceNumber(lexeme: string): number | InstanceNumber {
  const value = Number(lexeme);
  if (FLOAT_LEXEME.test(lexeme)) {
    // A float; JSON.stringify writes a whole one as an integer, which Python reads as an int.
    return Number.isInteger(value) ? new InstanceNumber(pythonFloatRepr(value), value) : value;
  }
  const exact = BigInt(lexeme);
  return Number.isFinite(value) && BigInt(value) === exact ? value : new InstanceNumber(exact.toString(), value);
}

/** Python's repr of a whole, finite float: `12345.0`, `-0.0`, and from 1e16 on `1e+16`, `1.2345e+20` (shortest digits, as JavaScript's). */
function pythonFloatRepr(value: number): string {
  if (Object.is(value, -0)) return "-0.0";
  if (Math.abs(value) < 1e16) return `${String(value)}.0`;
  return value.toExponential();
}

/** An instance file's JSON, numbers read as readInstanceNumber reads them. */
export function parseInstanceFile(text: string): unknown {
  return parse(text, null, readInstanceNumber);
}

/** Compact JSON as the grammar writes it, each InstanceNumber as its text. */
export function writeInstance(value: unknown): string {
  if (value instanceof InstanceNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(writeInstance).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${writeInstance(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
