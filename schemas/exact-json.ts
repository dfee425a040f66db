/**
 * JSON text read as JSON.parse reads it, refusing a number that states an
 * integer a double cannot hold: `9223372036854776001` (or
 * `9.223372036854776001e+18`) reads as 9223372036854775808, so a tool, and
 * the post-check before it, would get another number than the model wrote,
 * one a bound such as `maximum: 9223372036854776000` then accepts. An
 * integer a double holds exactly is read as written, however many digits
 * (2^63 as `9223372036854775808`), and so is a double's shortest text
 * (2^63 as JavaScript writes it, `9223372036854776000`, what an enum of it
 * forces, or as Python does, `9.223372036854776e+18`) and a number with a
 * fractional part, which is approximate anyway. The step grammar writes
 * no plain integer past 9e15 (json-integer-digits); this guards what
 * reaches the decoder otherwise (an exponent, a served model's text).
 */

/** Magnitude from which a double no longer holds every integer. */
const EXACT_LIMIT = 2 ** 53;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A text read as a value, or why not (`inexact` where it states an integer its double is not); the shape of every step decoder's result. */
export type ExactJson = { ok: true; value: unknown } | { ok: false; message: string; inexact?: InexactNumber };

/** A number literal that states an integer its double is not. */
export interface InexactNumber {
  /** The literal as written. */
  readonly literal: string;
  /** What JSON.parse makes of it. */
  readonly read: number;
}

export function readExactJson(text: string): ExactJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const inexact = inexactNumber(text);
  if (inexact) return { ok: false, message: `the number ${inexact.literal} is an integer no number holds exactly (it would read as ${BigInt(inexact.read)})`, inexact };
  return { ok: true, value };
}

/** The first number literal outside strings that states an integer other than its double, or null. `text` is valid JSON. */
function inexactNumber(text: string): InexactNumber | null {
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      // Skip the string: to its closing quote, past escapes.
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === "\\") index++;
    } else if (char === "-" || (char >= "0" && char <= "9")) {
      NUMBER.lastIndex = index;
      const literal = NUMBER.exec(text)![0];
      index += literal.length - 1;
      const read = Number(literal);
      // Below 2^53 every integer is exact; a non-finite value is the validator's to refuse.
      if (!Number.isFinite(read) || Math.abs(read) < EXACT_LIMIT || !Number.isInteger(read)) continue;
      const stated = statedInteger(literal);
      if (stated === null || stated === BigInt(read)) continue;
      // The double's shortest digits name it (2^63 as 9223372036854776000, JavaScript's text and an enum value the grammar forces, or Python's 9.223372036854776e+18).
      if (shortestDigits(literal) === read.toExponential()) continue;
      return { literal, read };
    }
  }
  return null;
}

/** A JSON number literal's sign, integer digits, fraction digits and exponent. */
function numberParts(literal: string): { sign: string; whole: string; fraction: string; exponent: number } {
  const [, sign = "", whole = "0", fraction = "", exponent = "0"] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  return { sign, whole, fraction, exponent: Number(exponent) };
}

/** A JSON number literal in the form Number.prototype.toExponential writes: its significant digits, one before the point, and the exponent. */
function shortestDigits(literal: string): string {
  const { sign, whole, fraction, exponent } = numberParts(literal);
  const all = `${whole}${fraction}`;
  const lead = all.search(/[1-9]/);
  if (lead < 0) return `${sign}0e+0`;
  const power = whole.length - 1 - lead + exponent;
  const digits = all.slice(lead).replace(/0+$/, "");
  return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ""}e${power < 0 ? "-" : "+"}${Math.abs(power)}`;
}

/** The integer a JSON number literal states exactly, or null where it states a fraction. */
function statedInteger(literal: string): bigint | null {
  const { sign, whole, fraction, exponent } = numberParts(literal);
  let digits = `${whole}${fraction}`;
  let scale = exponent - fraction.length;
  if (scale < 0) {
    if (/[1-9]/.test(digits.slice(scale))) return null;
    digits = digits.slice(0, scale) || "0";
    scale = 0;
  }
  const magnitude = BigInt(digits) * 10n ** BigInt(scale);
  return sign === "-" ? -magnitude : magnitude;
}
