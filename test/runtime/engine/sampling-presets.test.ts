import { describe, expect, it } from "vitest";
import { samplingPresetFor } from "../../../runtime/engine/sampling-presets.js";

describe("sampling presets by family", () => {
  it.each([
    [{ architecture: "gemma3", name: "Gemma 3 1B" }, "Gemma", { temperature: 1, topP: 0.95, topK: 64 }],
    [{ architecture: "qwen3", name: "Qwen3 0.6B" }, "Qwen3", { temperature: 0.7, topP: 0.8, topK: 20, minP: 0 }],
    [{ architecture: "llama", name: "narrowgauge tiny random" }, "default", { temperature: 0 }],
    [{}, "default", { temperature: 0 }],
  ])("%j → %s", (metadata, family, sampling) => {
    expect(samplingPresetFor(metadata)).toMatchObject({ family, sampling });
  });
});
