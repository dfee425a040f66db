import { describe, expect, it } from "vitest";
import { stepStart } from "../../base/step-start.js";

describe("stepStart: where a model turn begins in a rendering that goes on past a prompt", () => {
  it("is the prompt's end where the rendering extends the prompt", () => {
    expect(stepStart("<s>[INST]Task.[/INST]", "<s>[INST]Task.[/INST][TOOL_CALLS]x", "Task.")).toBe(21);
  });

  it("is after the last user text and the generation prompt where text before them moved (Mistral Nemo's system text)", () => {
    const prompt = "<s>[INST]System.\n\nTask.[/INST]";
    const rendered = "<s>[INST]Task.[/INST][TOOL_CALLS]x";
    expect(rendered.slice(stepStart(prompt, rendered, "Task.")!)).toBe("[TOOL_CALLS]x");
  });

  it("is null where the generation prompt is not found once after that text (a history that drops what the prompt holds, or says it twice)", () => {
    expect(stepStart("<|im_start|>assistant\n<think>\n", "<|im_start|>assistant\nx", "Task.")).toBeNull();
    expect(stepStart("A Task.<think>", "B Task.x", "Task.")).toBeNull();
    expect(stepStart("A Task.[/INST]", "B Task.[/INST]x Task.[/INST]", "Task.")).toBeNull();
  });
});
