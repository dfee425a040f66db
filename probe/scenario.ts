import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { NarrowgaugeError } from "../index.js";

const ToolName = Type.Union([Type.Literal("CityWeather"), Type.Literal("Calculator"), Type.Literal("ConvertTemperature"), Type.Literal("WebSearch")]);
const Behaviour = Type.Union([Type.Literal("normal"), Type.Literal("fails-once"), Type.Literal("always-fails")]);

/** A probe scenario, as stored in scenarios/<kind>/<id>.json. */
export const ScenarioSchema = Type.Object({
  id: Type.String({ pattern: "^[a-z0-9-]+$" }),
  description: Type.String(),
  task: Type.String({ minLength: 1 }),
  tools: Type.Array(ToolName, { minItems: 1 }),
  /** How a tool misbehaves in this scenario; "normal" when absent. */
  behaviours: Type.Optional(Type.Record(Type.String(), Behaviour)),
  /** Tools documented but switched off (A5). */
  disabled: Type.Optional(Type.Array(ToolName)),
  requireTool: Type.Optional(Type.Union([Type.Literal("always"), Type.Literal("never"), Type.Literal("auto")])),
  /**
   * What a solved run's final answer states: a value said about its subject
   * (`{ "about": "Paris", "is": 18 }`, or `"about": ["New York", "NYC"]` for
   * a subject with other names), or a bare value anywhere (numbers by value,
   * names case-insensitively). Empty when the honest outcome is a failure or
   * an answer that says what it could not find.
   */
  expect: Type.Array(
    Type.Union([
      Type.String(),
      Type.Number(),
      Type.Object({ about: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 })]), is: Type.Union([Type.String(), Type.Number()]) }, { additionalProperties: false }),
    ]),
  ),
  maxTurns: Type.Integer({ minimum: 1, maximum: 20 }),
});
export type Scenario = Static<typeof ScenarioSchema>;

export class ScenarioFileError extends NarrowgaugeError {
  readonly code = "scenario-file";
  readonly endsRun = true;
  constructor(readonly path: string, readonly reason: string) {
    super(`scenario ${path}: ${reason}`);
  }
}

export const SCENARIO_DIR = fileURLToPath(new URL("./scenarios/", import.meta.url));

async function parseScenario(path: string): Promise<Scenario> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new ScenarioFileError(path, (error as Error).message);
  }
  const issues = [...Value.Errors(ScenarioSchema, value)].map((issue) => `${issue.path || "/"} ${issue.message}`);
  if (issues.length > 0) throw new ScenarioFileError(path, issues.join("; "));
  if ((value as Scenario).id !== basename(path, ".json")) throw new ScenarioFileError(path, "id must match the file name");
  return value as Scenario;
}

/** Every scenario under `directory` (files grouped in folders by kind), in order of id. */
export async function loadScenarios(directory = SCENARIO_DIR): Promise<Scenario[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const paths = entries.filter((entry) => entry.isFile() && entry.name.endsWith(".json")).map((entry) => join(entry.parentPath, entry.name));
  const scenarios = await Promise.all(paths.map(parseScenario));
  const ids = new Set<string>();
  for (const [index, scenario] of scenarios.entries()) {
    if (ids.has(scenario.id)) throw new ScenarioFileError(paths[index]!, `the id ${scenario.id} is used twice`);
    ids.add(scenario.id);
  }
  return scenarios.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}
