import { describe, expect, it } from "vitest";
import { inventedToolNames } from "../../probe/peer-baseline.js";
import { ProbeReportSchema, renderMarkdown } from "../../probe/report.js";
import { runProbe } from "../../probe/run-probe.js";
import { loadScenarios, ScenarioFileError } from "../../probe/scenario.js";
import { llamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { testLlama } from "../helpers/llama.js";
import { atTier } from "../tier.js";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("the probe suite", () => {
  it("ships at least 20 valid scenarios covering the required kinds", async () => {
    const scenarios = await loadScenarios();
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    const ids = scenarios.map((scenario) => scenario.id);
    for (const id of ["dual-op-weather", "alias-nyc", "city-not-in-domain", "fails-once", "always-fails", "tool-off", "repeat-trap", "three-city", "time-sensitive", "timeless", "deferral-trap"]) {
      expect(ids).toContain(id);
    }
  });

  it("refuses a malformed scenario file with a typed error naming it", async () => {
    const directory = await mkdtemp(join(tmpdir(), "narrowgauge-scenarios-"));
    await writeFile(join(directory, "broken.json"), JSON.stringify({ id: "broken", task: "x" }));
    await expect(loadScenarios(directory)).rejects.toBeInstanceOf(ScenarioFileError);
  });

  it("finds call-shaped invented tool names in free text", () => {
    expect(inventedToolNames('I will call weather_api({"city":"Paris"}) and {"name": "get_weather"}', ["CityWeather"])).toEqual(["weather_api", "get_weather"]);
    expect(inventedToolNames('CityWeather({"city":"Paris"})', ["CityWeather"])).toEqual([]);
  });

  it("runs end to end on the tiny model under all four architectures; the JSON validates against the report schema", async () => {
    // The unit tier runs one scenario under the four architectures; the full tier's twin three.
    const scenarios = (await loadScenarios()).filter((scenario) => atTier(["dual-op-weather"], ["dual-op-weather", "always-fails", "timeless"]).includes(scenario.id));
    const runs = scenarios.length * 4;
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      const progress: string[] = [];
      const report = await runProbe({ model, scenarios, architectures: ["A", "B", "C", "P"], spy: true, onProgress: (line) => progress.push(line) });
      const json = JSON.parse(JSON.stringify(report));
      expect(validateAgainst(ProbeReportSchema, json)).toEqual([]);
      expect(report.runs).toHaveLength(runs);
      expect(Object.keys(report.summary)).toEqual(["A", "B", "C", "P"]);
      expect(report.model).toMatchObject({ wrapper: "ChatML", threads: 1, quantisation: "F32", builtIn: true, sampling: { family: "default", temperature: 0 } });
      // A reader can open any run and see the exact prompt.
      const c = report.runs.find((run) => run.arch === "C")!;
      expect((c.result.turns[0] as { spy?: { prompt: string } }).spy?.prompt).toContain("<|im_start|>");
      // The guarded architecture never invents: every run ends answered or honestly.
      for (const run of report.runs.filter((candidate) => candidate.arch === "C")) expect(["answered", "honest-failure"]).toContain(run.endedBy);
      expect(progress.some((line) => new RegExp(`\\[\\d+/${runs}\\] [ABCP] dual-op-weather turn \\d+`).test(line))).toBe(true);
      expect(renderMarkdown(report)).toContain("| arch | solved |");
    } finally {
      await model.dispose();
    }
  });

  it("compares codecs side by side: A, B and C once per codec, P once, each run saying how it wrote its steps", async () => {
    const scenarios = (await loadScenarios()).filter((scenario) => scenario.id === "dual-op-weather");
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      const report = await runProbe({ model, scenarios, architectures: ["C", "P"], codecs: ["json-v1", "json"] });
      expect(report.runs.map((run) => `${run.arch} ${run.codec}`)).toEqual(["C json-v1", "C json", "P node-llama-cpp"]);
      expect(Object.keys(report.summary)).toEqual(["C json-v1", "C json", "P"]);
      const markdown = renderMarkdown(report);
      expect(markdown).toContain("## C: forced union, native history, thought, guards by size, steps written as json");
      expect(markdown).toContain("| C json-v1 |");
    } finally {
      await model.dispose();
    }
  });
});
