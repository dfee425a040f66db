import { describe, expect, it } from "vitest";
import { forgedTemplateModel } from "../../bench/forge/template-models.js";
import { loadModel } from "../../runtime/backends/llama/load-model.js";
import type { RunResult } from "../../runtime/loop/run-types.js";
import { renderMarkdown } from "../../probe/report.js";
import { runProbe } from "../../probe/run-probe.js";
import { loadScenarios } from "../../probe/scenario.js";

/**
 * Issue 34's item 7: a user with a model of a templated family measures its
 * own call syntax against json on it. On a model forged around Phi-4-mini's
 * template (its frame holds control tokens), the probe runs C once per codec,
 * each run rendered through the template and written in its codec.
 */
describe("the probe's codec comparison on a model with its own chat template", () => {
  it("runs C with the template's native frame and with json, side by side", async () => {
    const scenarios = (await loadScenarios()).filter((scenario) => scenario.id === "alias-londres");
    const model = await loadModel(await forgedTemplateModel("llama-cpp-microsoft-Phi-4-mini-instruct"), { sequences: 1 });
    try {
      const report = await runProbe({ model, scenarios, architectures: ["C"], codecs: ["native", "json"], spy: true });
      expect(report.runs.map((run) => `${run.arch} ${run.codec}`)).toEqual(["C native", "C json"]);
      expect(model.description.wrapper).toBe("Template");
      expect(report.runs.every((run) => run.result.status !== "failed")).toBe(true);
      // The native run's steps hold the template's frame; the json run's do not.
      // A probe run's result is the run's record as JSON; it is a RunResult here.
      const firstRaw = (index: number) => (report.runs[index]!.result as unknown as RunResult).turns[0]!.raw;
      expect(firstRaw(0)).toContain("<|tool_call|>");
      expect(firstRaw(1)).toMatch(/^\{"thought":/);
      expect(renderMarkdown(report)).toContain("| C native |");
    } finally {
      await model.dispose();
    }
  });
});
