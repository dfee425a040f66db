import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { runPrinter } from "../../cli/print-run.js";
import { paint } from "../../cli/terminal.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { defineTool } from "../../runtime/tools/define-tool.js";

const call = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });

describe("the run transcript", () => {
  it("says why what is not offered is not, when it changes", async () => {
    const lines: string[] = [];
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), call("CityWeather", { city: "New York" }), { thought: "", call: { tool: "FinalAnswer", answer: "Paris 18°C, New York 24°C." } }]);
    await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid", onEvent: runPrinter({ spy: false, live: false, paint: paint({ isTTY: false } as NodeJS.WriteStream), write: (line) => lines.push(line) }) });
    const hidden = lines.filter((line) => line.startsWith("  not offered: "));
    expect(hidden[0]).toContain("FinalAnswer hidden (the run requires a tool and no tool call has succeeded yet)");
    expect(hidden[0]).toMatch(/Calculator hidden \(no grounded number/);
    // Printed again only when what is hidden changes (after the first result, FinalAnswer is offered).
    expect(new Set(hidden).size).toBe(hidden.length);
  });

  it("says which tools are shown by their parameters' names and types alone (one tool's documentation outgrew the budget)", async () => {
    const lines: string[] = [];
    const printer = runPrinter({ spy: false, live: false, paint: paint({ isTTY: false } as NodeJS.WriteStream), write: (line) => lines.push(line) });
    const scrape = defineTool({
      name: "firecrawl_scrape",
      description: `Scrapes a page. ${"Many words. ".repeat(400)}`,
      params: Type.Object(Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`option${index}`, Type.Optional(Type.String({ description: "An option. ".repeat(20) }))]))),
      run: () => "page",
    });
    await runAgent({ model: scriptedModel([], { contextSize: 4096 }), tools: [scrape, ...weatherTools], task: "Scrape the page.", profile: "mid", maxTurns: 1, onEvent: printer }).catch(() => undefined);
    expect(lines.join("\n")).toContain("shown, each by its first sentence, to fit 2048 tokens (--tool-share of the context): firecrawl_scrape\n  by their parameters' names and types alone (each one's documentation alone outgrew that): firecrawl_scrape\n");
  });
});
