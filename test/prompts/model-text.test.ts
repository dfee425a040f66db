import { describe, expect, it } from "vitest";
import * as TEXT from "../../prompts/model-text.js";

/**
 * Every sentence the model can read, written out with sample data. The
 * trained default model learned these bytes; a change here must be a change
 * on purpose (update the snapshot and retrain or re-measure).
 */
const SAMPLES: Record<string, string> = {
  "system prompt": TEXT.DEFAULT_SYSTEM_PROMPT,
  "system prompt, native codec": TEXT.NATIVE_SYSTEM_PROMPT,
  "system prompt, native codec, call only": TEXT.NATIVE_CALL_ONLY_SYSTEM_PROMPT,
  "json codec: tool section": [
    TEXT.JSON_STEP_TOOLS.heading,
    TEXT.JSON_STEP_TOOLS.tool("CityWeather", "Current weather for a city.", '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}'),
    TEXT.JSON_STEP_TOOLS.answer(TEXT.FINAL_ANSWER_DESCRIPTION),
    TEXT.JSON_STEP_TOOLS.shape(true),
  ].join("\n"),
  "json codec: step shape without a thought": TEXT.JSON_STEP_TOOLS.shape(false),
  "json codec: a result": TEXT.OBSERVATION("CityWeather", '{"city":"Paris","temperatureC":18}'),
  "FinalAnswer documentation": TEXT.FINAL_ANSWER_DESCRIPTION,
  "invalid step: cut off": TEXT.INVALID_STEP.truncated(["CityWeather", "FinalAnswer"]),
  "invalid step: not UTF-8": TEXT.INVALID_STEP.invalidUtf8(["CityWeather"]),
  "invalid step: not a step": TEXT.INVALID_STEP.other(["CityWeather", "Calculator", "FinalAnswer"]),
  "withheld: banned": TEXT.WITHHELD.banned(2),
  "withheld: switched off": TEXT.WITHHELD.switchedOff,
  "withheld: declined": TEXT.WITHHELD.declined,
  "withheld: no grounded number": TEXT.WITHHELD.noGroundedNumber("Calculator.a"),
  "withheld: all fetched": TEXT.WITHHELD.allFetched("CityWeather.city"),
  "withheld: final only": TEXT.WITHHELD.finalOnly,
  "withheld: not offered": TEXT.WITHHELD.notOffered,
  "refused: unknown tool": TEXT.REFUSED.unknownTool("Rates"),
  "refused: not available": TEXT.REFUSED.notAvailable("Calculator", TEXT.WITHHELD.banned(2)),
  "refused: outside the domain": TEXT.REFUSED.outsideDomain("Berlin", "city", ["Paris", "New York"]),
  "refused: bad arguments": TEXT.REFUSED.badArguments("ConvertTemperature", "/value must be >= -459.67"),
  "refused: ungrounded number, with suppliers": TEXT.REFUSED.ungroundedNumber([25], "ConvertTemperature", [{ tool: "CityWeather", provides: "a city temperature" }]),
  "refused: ungrounded number, no supplier": TEXT.REFUSED.ungroundedNumber([25, 3], "Calculator", []),
  "refused: repeat": TEXT.REFUSED.repeat(2),
  "refused: declined by the person": TEXT.REFUSED.declined("delete_entities"),
  "tool failed: unknown tool": TEXT.TOOL_FAILED.unknownTool("Rates", ["CityWeather", "Calculator"]),
  "tool failed: __proto__": TEXT.TOOL_FAILED.protoKey("Store"),
  "tool failed: aborted": TEXT.TOOL_FAILED.aborted("Slow"),
  "tool failed: aborted while the person was asked": TEXT.TOOL_FAILED.abortedAsking("delete_entities"),
  "tool failed: timed out": TEXT.TOOL_FAILED.timedOut("Slow", 50),
  "tool failed: threw": TEXT.TOOL_FAILED.threw("Calculator", "division by zero"),
  "tool failed: unserialisable": TEXT.TOOL_FAILED.unserialisable("Do not know how to serialize a BigInt"),
  "tool result truncated": `{"text":"abc${TEXT.TOOL_FAILED.truncated(1234)}`,
  "sent back: FinalAnswer hidden": TEXT.SENT_BACK.hidden,
  "sent back: numbers": TEXT.SENT_BACK.numbers([30], [18, 24]),
  "sent back: numbers, none grounded": TEXT.SENT_BACK.numbers([30], []),
  "sent back: names": TEXT.SENT_BACK.names(["Berlin"], ["Paris", "New York"]),
  "sent back: names, none grounded": TEXT.SENT_BACK.names(["Berlin"], []),
  "sent back: nudge": TEXT.SENT_BACK.nudge("Paris weather"),
  "forced final: from results": TEXT.FORCED_FINAL.fromResults([TEXT.FORCED_FINAL.notFetched("CityWeather", "New York"), TEXT.FORCED_FINAL.failed("Calculator", "Calculator failed: division by zero")]),
  "forced final: from results, nothing missing": TEXT.FORCED_FINAL.fromResults([]),
  "forced final: from knowledge": TEXT.FORCED_FINAL.fromKnowledge([TEXT.FORCED_FINAL.switchedOff("WebSearch"), TEXT.FORCED_FINAL.failed("CityWeather", null)]),
  "forced final: from knowledge, nothing known": TEXT.FORCED_FINAL.fromKnowledge([TEXT.FORCED_FINAL.nothing]),
  "freshness prompt": TEXT.FRESHNESS_PROMPT,
  "verdict prompt": TEXT.VERDICT_PROMPT,
  "verdict question": TEXT.verdictQuestion("Weather in Paris?", "I can look that up."),
  "architecture A: digest": TEXT.ARCHITECTURE_A.digest("Weather in Paris?", [
    TEXT.ARCHITECTURE_A.thought("Paris first"),
    TEXT.ARCHITECTURE_A.step(1, "CityWeather", { city: "Paris" }, { temperatureC: 18 }),
    TEXT.ARCHITECTURE_A.note("Final step: …"),
  ]),
  "architecture A: fill arguments": TEXT.ARCHITECTURE_A.fillArguments("CityWeather"),
  "architecture A: write the answer": TEXT.ARCHITECTURE_A.writeAnswer,
};

describe("every sentence the model can read", () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`is pinned: ${name}`, () => {
      expect(text).toMatchSnapshot();
    });
  }

  it("covers every export of the module", () => {
    const exported = Object.keys(TEXT).sort();
    expect(exported).toEqual(["ARCHITECTURE_A", "DEFAULT_SYSTEM_PROMPT", "FINAL_ANSWER_DESCRIPTION", "FORCED_FINAL", "FRESHNESS_PROMPT", "INVALID_STEP", "JSON_STEP_TOOLS", "NATIVE_CALL_ONLY_SYSTEM_PROMPT", "NATIVE_SYSTEM_PROMPT", "OBSERVATION", "REFUSED", "SENT_BACK", "TOOL_FAILED", "TRUNCATION_MARKER", "VERDICT_PROMPT", "WITHHELD", "verdictQuestion"]);
  });
});
