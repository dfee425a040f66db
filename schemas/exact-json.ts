/**
 * JSON text read as JSON.parse reads it, refusing an integer written with
 * more digits than a double holds: `9223372036854776001` reads as
 * 9223372036854776000, so a tool (and the post-check before it) would get
 * another number than the model wrote, one a bound such as `maximum:
 * 9223372036854776000` then accepts. An integer that reads back as written
 * (JavaScript writes 2^63 as 9223372036854776000) is kept. A fraction or an
 * exponent says the number is approximate, and is read as written. The step
 * grammar writes no such integer (json-integer-digits); this guards what
 * reaches the decoder otherwise.
 */

/** Digits up to which every integer reads back as written. */
const EXACT_DIGITS = 15;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export type ExactJson = { ok: true; value: unknown } | { ok: false; message: string };

export function readExactJson(text: string): ExactJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const inexact = inexactInteger(text);
  if (inexact !== null) return { ok: false, message: `the integer ${inexact} has more digits than a number holds exactly (it would read as ${String(Number(inexact))})` };
  return { ok: true, value };
}

/** The first integer literal outside strings that does not read back as written, or null. `text` is valid JSON. */
function inexactInteger(text: string): string | null {
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      // Skip the string: to its closing quote, past escapes.
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === "\\") index++;
    } else if (char === "-" || (char >= "0" && char <= "9")) {
      NUMBER.lastIndex = index;
      const literal = NUMBER.exec(text)![0];
      index += literal.length - 1;
      const digits = literal.replace("-", "");
      if (digits.length > EXACT_DIGITS && /^\d+$/.test(digits) && String(Number(literal)) !== literal) return literal;
    }
  }
  return null;
}
