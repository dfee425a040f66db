import { Type } from "@sinclair/typebox";
import { defineTool, type Tool } from "../index.js";
import { calculator, cityWeather, convertTemperature } from "../demos/weather-tools.js";
import type { Scenario } from "./scenario.js";

/** A search tool whose results are always thin: the repeat trap (a thin result gets asked for again, and again). */
export const webSearch = defineTool({
  name: "WebSearch",
  description: "Search the web; returns matching snippets.",
  params: Type.Object({ query: Type.String({ minLength: 1, maxLength: 80 }) }),
  run: () => ({ results: [], note: "no results" }),
});

const BASE: Record<Scenario["tools"][number], Tool> = {
  CityWeather: cityWeather as Tool,
  Calculator: calculator as Tool,
  ConvertTemperature: convertTemperature as Tool,
  WebSearch: webSearch as Tool,
};

function withBehaviour(tool: Tool, behaviour: "normal" | "fails-once" | "always-fails"): Tool {
  if (behaviour === "normal") return tool;
  let calls = 0;
  return defineTool({
    ...tool,
    run: (args, context) => {
      calls++;
      if (behaviour === "always-fails" || calls === 1) throw new Error(`${tool.name} service unavailable (503)`);
      return tool.run(args, context);
    },
  }) as Tool;
}

/** Fresh tool instances for one run of a scenario (a "fails once" tool must fail once per run). */
export function toolsFor(scenario: Scenario): Tool[] {
  return scenario.tools.map((name) => withBehaviour(BASE[name], scenario.behaviours?.[name] ?? "normal"));
}
