import { describe, expect, it } from "vitest";
import { calculator } from "../../../demos/weather-tools.js";
import { PROFILES } from "../../../guards/profiles.js";
import { RUN_DEFAULTS, resolveRunConfig } from "../../../runtime/loop/run-config.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";

const base = () => ({ model: scriptedModel([]), tools: [calculator], task: "t" });

describe("resolveRunConfig: every option resolved once", () => {
  it("fills every default from RUN_DEFAULTS, the profile from the model, and the sampling from the model's family", () => {
    const model = scriptedModel([]);
    const gemmaLike = { ...model, description: { ...model.description, parameters: 9e9, sampling: { family: "Gemma", sampling: { temperature: 1, topK: 64 }, source: "card" } } };
    const config = resolveRunConfig({ ...base(), model: gemmaLike });
    expect(config).toMatchObject({
      maxTurns: RUN_DEFAULTS.maxTurns,
      gateBudget: RUN_DEFAULTS.gateBudget,
      maxTokensPerStep: RUN_DEFAULTS.maxTokensPerStep,
      toolTimeoutMs: RUN_DEFAULTS.toolTimeoutMs,
      maxResultChars: RUN_DEFAULTS.maxResultChars,
      thoughtMaxLength: 200,
      answerMaxLength: 400,
      requireTool: "always",
      profileName: "large",
      profile: PROFILES.large,
      sampling: { temperature: 1, topK: 64 },
      disabledTools: [],
    });
    expect(resolveRunConfig({ ...base(), sampling: { temperature: 0 } }).sampling).toEqual({ temperature: 0 });
  });

  it("leaves nothing undefined except the caller's listener", () => {
    const config = resolveRunConfig(base());
    const undefinedKeys = Object.entries(config).filter(([, value]) => value === undefined).map(([key]) => key);
    expect(undefinedKeys).toEqual(["onEvent"]);
    expect(config.signal.aborted).toBe(false);
  });

  it("refuses options that cannot mean anything", () => {
    expect(() => resolveRunConfig({ ...base(), maxTurns: 0 })).toThrow(/maxTurns must be a positive integer/);
    expect(() => resolveRunConfig({ ...base(), profile: "tiny" as never })).toThrow(/unknown profile "tiny"/);
  });
});
