import { describe, expect, it } from "vitest";
import { assertFitsContext, leavesRoom, leavesStepAndFinal, roomLeft, stepBudget, stepReserve, stringRoom, textCaps, toolDocumentationBudget } from "../../../runtime/engine/context-budget.js";
import { ContextOverflowError } from "../../../runtime/engine/context-overflow.js";

describe("the context budget: every question of room answered in one place", () => {
  it("reads an unbounded context (null) as room for everything, and every cap as the caller's own", () => {
    expect(toolDocumentationBudget(null, 0.5)).toBeNull();
    expect(roomLeft(null, 10 ** 9)).toBe(Infinity);
    expect(leavesStepAndFinal(null, 10 ** 9, 10 ** 6)).toBe(true);
    expect(stepBudget(10 ** 9, 300, null, 50)).toBe(300);
    expect(stringRoom(null, 10 ** 9, 300, 100)).toBe(300);
    expect(() => assertFitsContext(10 ** 9, 10 ** 9, null)).not.toThrow();
  });

  it("holds a step and then the final's: twice the reserve, the reserve never under the shortest step", () => {
    expect(stepReserve(40, 300, 120)).toBe(120);
    expect(stepReserve(40, 100, 120)).toBe(100);
    expect(stepReserve(160, 300, 120)).toBe(160);
    expect(leavesStepAndFinal(1000, 760, 120)).toBe(true);
    expect(leavesStepAndFinal(1000, 761, 120)).toBe(false);
    expect(leavesRoom(1000, 960, 40)).toBe(true);
    expect(leavesRoom(1000, 961, 40)).toBe(false);
    expect(toolDocumentationBudget(4096, 0.5)).toBe(2048);
  });

  it("gives a step what is left, less what must follow, never under its shortest text; a prompt that leaves less is ContextOverflowError", () => {
    expect(stepBudget(900, 300, 1000, 40)).toBe(100);
    expect(stepBudget(900, 300, 1000, 40, 80)).toBe(40);
    expect(stepBudget(100, 300, 1000, 40, 80)).toBe(300);
    expect(() => stepBudget(970, 300, 1000, 40)).toThrow(ContextOverflowError);
    expect(() => assertFitsContext(900, 101, 1000)).toThrow(ContextOverflowError);
    expect(() => assertFitsContext(900, 100, 1000)).not.toThrow();
  });

  it("caps a low-on-context step's free text to the room beside the prompt: a third for the thought, the rest for the answer, neither over its own cap", () => {
    expect(textCaps(1000, 700, 40, { thought: 200, answer: 400 })).toEqual({ thought: 86, answer: 174 });
    expect(textCaps(1000, 100, 40, { thought: 200, answer: 400 })).toEqual({ thought: 200, answer: 400 });
    expect(textCaps(1000, 990, 40, { thought: 200, answer: 400 })).toEqual({ thought: 0, answer: 1 });
    expect(stringRoom(1000, 700, 300, 120)).toBe(180);
  });
});
