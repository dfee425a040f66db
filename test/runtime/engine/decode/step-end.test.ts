import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StepEndTracker, type StepEnd } from "../../../../runtime/engine/decode/step-end.js";

const QWEN: StepEnd = { before: ['\n<tool_call>\n{"name": "', '", "arguments": '], after: "}\n</tool_call>" };
const step = 'Paris first, then "New York".\n<tool_call>\n{"name": "Search", "arguments": {"q": "}\\n</tool_call> {\\"a\\": 1}", "n": [1, {"b": 2}]}}\n</tool_call>';

/** Where the tracker says the step ends, with the text fed in the given pieces. */
function endOf(end: StepEnd, pieces: readonly string[]): number {
  const tracker = new StepEndTracker(end);
  let offset = 0;
  for (const piece of pieces) {
    const consumed = tracker.push(piece);
    if (consumed >= 0) return offset + consumed;
    offset += piece.length;
  }
  return -1;
}

describe("the end of a step in the stream", () => {
  it("is the last character of a call in the family's syntax, however the text is split, never inside its arguments' strings", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: step.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...new Set(cuts)].sort((a, b) => a - b);
        const pieces = points.map((point, index) => step.slice(point, points[index + 1] ?? step.length));
        expect(endOf(QWEN, pieces)).toBe(step.length);
      }),
    );
    expect(endOf(QWEN, [step + "<|im_end|>"])).toBe(step.length);
  });

  it("is the JSON value's closing character for a JSON step (the default)", () => {
    const json = '{"thought":"a }","call":{"tool":"X","args":{}}}';
    expect(endOf({ before: [], after: "" }, [json, "\n"])).toBe(json.length);
    expect(new StepEndTracker().push(json.slice(0, -1))).toBe(-1);
  });
});
