/**
 * The conversations every corpus template is rendered with, in the shape
 * Hugging Face chat templates read (OpenAI's messages, tools as
 * `{type: "function", function}`): the start of a run, a call with text
 * beside it and without (empty and null content), two calls in a row, a
 * note after a result, a final answer, a call whose arguments hold every
 * JSON type; each with the call's arguments as an
 * object and as a JSON string (templates expect one or the other).
 */
export const TEMPLATE_CLOCK = "2026-07-26T10:00:00";

const tools = [
  { type: "function", function: { name: "CityWeather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string", enum: ["Paris", "Tokyo"] }, days: { type: "array", items: { type: "integer" } } }, required: ["city"] } } },
  { type: "function", function: { name: "FinalAnswer", description: "Answer the user.", parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } } },
];

function conversations(stringArguments: boolean): Record<string, Record<string, unknown>> {
  const call = (id: string, city: string, more: Record<string, unknown> = {}) => ({ id, type: "function", function: { name: "CityWeather", arguments: stringArguments ? JSON.stringify({ city, ...more }) : { city, ...more } } });
  /** Arguments of every JSON type, nested: how a template writes each (Gemma 4's and LFM2.5's own syntaxes, Python's repr of a list). */
  const rich = { days: [1, 2], units: { scale: "C", exact: true }, tags: ["a b", true, null, 1.5, { k: "v" }], flag: false, nothing: null, ratio: 0.25, Zone: "x" };
  const result = (id: string, temperature: number) => ({ role: "tool", tool_call_id: id, name: "CityWeather", content: JSON.stringify({ city: "Paris", temperature }) });
  const start = [{ role: "system", content: "You are a careful assistant." }, { role: "user", content: "What is the weather in Paris?" }];
  const common = { tools, bos_token: "<s>", eos_token: "</s>", add_generation_prompt: true };
  const first = { role: "assistant", content: "I check Paris.", tool_calls: [call("call00001", "Paris")] };
  return {
    start: { ...common, messages: start },
    call: { ...common, messages: [...start, first, result("call00001", 18)] },
    emptyContent: { ...common, messages: [...start, { role: "assistant", content: "", tool_calls: [call("call00001", "Paris")] }, result("call00001", 18)] },
    nullContent: { ...common, messages: [...start, { role: "assistant", content: null, tool_calls: [call("call00001", "Paris")] }, result("call00001", 18)] },
    twoCalls: { ...common, messages: [...start, first, result("call00001", 18), { role: "assistant", content: "And Tokyo.", tool_calls: [call("call00002", "Tokyo")] }, result("call00002", 25)] },
    richArguments: { ...common, messages: [...start, { role: "assistant", content: "I check Paris.", tool_calls: [call("call00001", "Paris", rich)] }, result("call00001", 18)] },
    note: { ...common, messages: [...start, first, result("call00001", 18), { role: "user", content: "That call repeats one." }] },
    final: { ...common, add_generation_prompt: false, messages: [...start, { role: "assistant", content: "It is 18 degrees." }] },
  };
}

export const TEMPLATE_CONVERSATIONS: Record<string, Record<string, unknown>> = {
  ...conversations(false),
  ...Object.fromEntries(Object.entries(conversations(true)).filter(([name]) => name !== "start" && name !== "final").map(([name, variables]) => [`${name}/stringArguments`, variables])),
};
