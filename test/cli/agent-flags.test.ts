import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { addAgentFlags, agentOptions } from "../../cli/agent-flags.js";
import { calculator } from "../../demos/weather-tools.js";
import { resolveRunConfig } from "../../runtime/loop/run-config.js";
import { RUN_OPTIONS, SAMPLING_FIELDS } from "../../runtime/loop/options/run-options.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { ConfigurationError } from "../../base/configuration-error.js";

const parse = (...args: string[]) => {
  const command = addAgentFlags(new Command("run").exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }));
  command.parse(["node", "run", ...args]);
  return command.opts();
};
const base = () => ({ model: scriptedModel([]), tools: [calculator], task: "t" });

describe("the command line's flags, derived from RUN_OPTIONS", () => {
  it("offers a flag for every option the declaration gives one, and one per sampling field", () => {
    const command = addAgentFlags(new Command("run"));
    const flags = command.options.map((option) => option.long);
    const declared = Object.entries(RUN_OPTIONS).filter(([, declaration]) => "flag" in declaration && declaration.flag).map(([name]) => name);
    expect(declared.length).toBeGreaterThan(10);
    for (const name of [...declared, ...Object.keys(SAMPLING_FIELDS)]) {
      const kebab = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
      expect(flags, name).toContainEqual(expect.stringMatching(new RegExp(`^--(no-)?${kebab}$`)));
    }
  });

  it("carries each value to runAgent as the API takes it", () => {
    const flags = parse("--max-turns", "3", "--gate-budget", "0", "--disabled-tools", "Calculator, Other", "--no-feedback-on-invalid", "--spy", "--profile", "mid", "--require-tool", "auto", "--temperature", "0.5", "--top-k", "40");
    const config = resolveRunConfig({ ...base(), ...agentOptions(flags, { temperature: 0 }) });
    expect(config).toMatchObject({ maxTurns: 3, gateBudget: 0, disabledTools: ["Calculator", "Other"], feedbackOnInvalid: false, spy: true, profileName: "mid", requireTool: "auto", sampling: { temperature: 0.5, topK: 40 } });
  });

  it("leaves every option it was not given at the API's default", () => {
    const fromFlags = resolveRunConfig({ ...base(), ...agentOptions(parse(), { temperature: 0 }) });
    const fromApi = resolveRunConfig({ ...base(), sampling: { temperature: 0 } });
    const { signal: _a, model: _b, ...left } = fromFlags;
    const { signal: _c, model: _d, ...right } = fromApi;
    expect(left).toEqual(right);
  });

  it.each([
    ["--max-turns", "0", { maxTurns: 0 }],
    ["--gate-budget", "-1", { gateBudget: -1 }],
    ["--thought-max-length", "5000", { thoughtMaxLength: 5000 }],
    ["--top-p", "1.5", { sampling: { topP: 1.5 } }],
  ] as const)("refuses %s %s, as runAgent refuses it", (flag, value, option) => {
    expect(() => parse(flag, value)).toThrow(/must be/);
    expect(() => resolveRunConfig({ ...base(), ...option })).toThrow(ConfigurationError);
  });
});
