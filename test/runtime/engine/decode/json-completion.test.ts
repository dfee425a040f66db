import { describe, expect, it } from "vitest";
import { JsonCompletionTracker } from "../../../../runtime/engine/decode/json-completion.js";

const consumedAt = (...pieces: string[]): number[] => {
  const tracker = new JsonCompletionTracker();
  return pieces.map((piece) => tracker.push(piece));
};

describe("JsonCompletionTracker", () => {
  it("closes on the brace that ends the top-level object, not on braces or quotes inside strings", () => {
    expect(consumedAt('{"a":"}', '\\"{"', ',"b":[1,{}]', "}")).toEqual([-1, -1, -1, 1]);
  });

  it("reports how much of a piece belongs to the value", () => {
    expect(consumedAt('{"a":1}xyz')).toEqual([7]);
    expect(consumedAt('"text"')).toEqual([6]);
  });

  it("never closes a scalar root (the end-of-generation token ends it)", () => {
    expect(consumedAt("12", "3")).toEqual([-1, -1]);
  });
});
