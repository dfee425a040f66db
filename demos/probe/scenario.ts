import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type, type Static } from "@sinclair/typebox";
import { NarrowgaugeError } from "../../runtime/narrowgauge-error.js";
import { describeIssues, validateAgainst } from "../../schemas/validator-cache.js";

const ToolName = Type.Union([Type.Literal("CityWeather"), Type.Literal("Calculator"), Type.Literal("ConvertTemperature"), Type.Literal("WebSearch")]);
const Behaviour = Type.Union([Type.Literal("normal"), Type.Literal("fails-once"), Type.Literal("always-fails")]);

/** A probe scenario, as stored in scenarios/*.json. */
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
   * What a solved run's final answer contains: numbers (matched by value) and
   * names (case-insensitive). Empty when the honest outcome is a failure or
   * an answer that says what it could not find.
   */
  expect: Type.Array(Type.Union([Type.String(), Type.Number()])),
  maxTurns: Type.Integer({ minimum: 1, maximum: 20 }),
});
export type Scenario = Static<typeof ScenarioSchema>;

export class ScenarioFileError extends NarrowgaugeError {
  readonly code = "scenario-file";
  constructor(readonly path: string, readonly reason: string) {
    super(`scenario ${path}: ${reason}`);
  }
}

export const SCENARIO_DIR = fileURLToPath(new URL("./scenarios/", import.meta.url));

export async function loadScenarios(directory = SCENARIO_DIR): Promise<Scenario[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith(".json")).sort();
  return Promise.all(
    files.map(async (file) => {
      const path = join(directory, file);
      let value: unknown;
      try {
        value = JSON.parse(await readFile(path, "utf8"));
      } catch (error) {
        throw new ScenarioFileError(path, (error as Error).message);
      }
      const issues = validateAgainst(ScenarioSchema, value);
      if (issues.length > 0) throw new ScenarioFileError(path, describeIssues(issues));
      if ((value as Scenario).id !== file.replace(/\.json$/, "")) throw new ScenarioFileError(path, "id must match the file name");
      return value as Scenario;
    }),
  );
}
