import { describe, expect, it } from "vitest";
import { calculator } from "../../../demos/weather-tools.js";
import { PROFILES } from "../../../guards/profiles.js";
import { RUN_DEFAULTS, resolveRunConfig } from "../../../runtime/loop/run-config.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { ConfigurationError } from "../../../base/configuration-error.js";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";

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

  it("leaves nothing undefined except the caller's listener, approval and a string bound, whose absence means something (none can approve; the step's room bounds strings)", () => {
    const config = resolveRunConfig(base());
    const undefinedKeys = Object.entries(config).filter(([, value]) => value === undefined).map(([key]) => key);
    expect(undefinedKeys).toEqual(["approve", "defaultMaxLength", "onEvent"]);
    expect(config.signal.aborted).toBe(false);
  });

  it("refuses options that cannot mean anything with a ConfigurationError naming the option", () => {
    const refusal = (options: object) => {
      try {
        resolveRunConfig({ ...base(), ...options });
      } catch (error) {
        return error;
      }
      return null;
    };
    expect(refusal({ maxTurns: 0 })).toMatchObject({ name: "ConfigurationError", code: "configuration", option: "maxTurns", endsRun: true, message: expect.stringMatching(/maxTurns must be a positive integer/) });
    expect(refusal({ profile: "tiny" })).toMatchObject({ option: "profile", message: expect.stringMatching(/unknown profile "tiny"/) });
    expect(refusal({ sampling: { topp: 0.9 } })).toMatchObject({ option: "sampling.topp", message: expect.stringMatching(/did you mean "topP"/) });
    expect(refusal({ maxTurns: 1.5 })).toBeInstanceOf(ConfigurationError);
    expect(refusal({ maxTurns: 1.5 })).toBeInstanceOf(NarrowgaugeError);
  });

  it("refuses an option it does not know, naming the closest one it does (a misspelt option would otherwise do nothing)", () => {
    expect(() => resolveRunConfig({ ...base(), maxTurn: 3 } as never)).toThrow(/maxTurn is not an option of runAgent; did you mean "maxTurns"\?/);
    expect(() => resolveRunConfig({ ...base(), zzzz: 3 } as never)).toThrow(/zzzz is not an option of runAgent; known: model, tools, task/);
  });
});
