import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { llamaModelPort, openModel, type LlamaModelPort } from "../../index.js";
import { startChatServer, type ChatServer } from "../../serve/chat-server.js";
import { chatTools, runChatTool } from "../helpers/chat-tools.js";
import { testLlama } from "../helpers/llama.js";

const tools = chatTools(weatherTools);
let model: LlamaModelPort;
let server: ChatServer;
let client: OpenAI;

beforeAll(async () => {
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama(), sequences: 2 }));
  server = await startChatServer({ model, name: "demo", step: { profile: "sub1b", maxTurns: 6 } });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  await model?.dispose();
});

type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** The openai client's tool loop: call, run the tool, send the result back, until the model answers. */
async function toolLoop(stream: boolean): Promise<{ answer: string | null; reasoning: string[]; steps: number }> {
  const messages: Message[] = [{ role: "user", content: WEATHER_TASK }];
  const reasoning: string[] = [];
  for (let steps = 1; steps <= 6; steps++) {
    let message: OpenAI.Chat.ChatCompletionMessage;
    if (stream) {
      const runner = client.chat.completions.stream({ model: "demo", messages, tools });
      runner.on("chunk", (chunk) => {
        const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
        if (delta?.reasoning_content) reasoning.push(delta.reasoning_content);
      });
      message = (await runner.finalChatCompletion()).choices[0]!.message;
    } else {
      message = (await client.chat.completions.create({ model: "demo", messages, tools })).choices[0]!.message;
      const thought = (message as { reasoning_content?: string }).reasoning_content;
      if (thought) reasoning.push(thought);
    }
    messages.push(message);
    if (!message.tool_calls?.length) return { answer: message.content, reasoning, steps };
    for (const call of message.tool_calls) {
      if (call.type !== "function") throw new TypeError("a function call was expected");
      messages.push({ role: "tool", tool_call_id: call.id, content: await runChatTool(weatherTools, call.function.name, JSON.parse(call.function.arguments)) });
    }
  }
  return { answer: null, reasoning, steps: 6 };
}

describe("narrowgauge serve, through the openai client", () => {
  it("answers the demo task in a tool loop, with 18 and 24", async () => {
    const { answer, reasoning, steps } = await toolLoop(false);
    expect(answer).toMatch(/18/);
    expect(answer).toMatch(/24/);
    expect(steps).toBe(3);
    expect(reasoning.length).toBe(3);
  });

  it("streams the same loop: the thought as reasoning_content deltas, the call and the answer at the end", async () => {
    const { answer, reasoning } = await toolLoop(true);
    expect(answer).toMatch(/18/);
    expect(answer).toMatch(/24/);
    expect(reasoning.join("")).toContain("Paris");
  });

  it("answers response_format json_schema with JSON that holds to the schema", async () => {
    const schema = { type: "object", properties: { city: { type: "string", enum: ["Paris", "London"] }, warm: { type: "boolean" } }, required: ["city", "warm"], additionalProperties: false };
    const completion = await client.chat.completions.create({ model: "demo", messages: [{ role: "user", content: "Is Paris warm?" }], response_format: { type: "json_schema", json_schema: { name: "reply", schema, strict: true } } });
    const value = JSON.parse(completion.choices[0]!.message.content!);
    expect(Object.keys(value).sort()).toEqual(["city", "warm"]);
    expect(["Paris", "London"]).toContain(value.city);
    expect(typeof value.warm).toBe("boolean");
  });

  it("answers 4 clients at once", async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => toolLoop(false)));
    for (const { answer } of answers) expect(answer).toMatch(/18.*24|24.*18/s);
  });

  it("gets 4xx for 20 malformed requests in OpenAI's error shape, and keeps answering", async () => {
    const post = (body: string, headers: Record<string, string> = {}) => fetch(`${server.url}/v1/chat/completions`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
    const user = [{ role: "user", content: "hi" }];
    const bad = [
      "{not json",
      "[]",
      "null",
      JSON.stringify({}),
      JSON.stringify({ messages: [] }),
      JSON.stringify({ messages: [{ role: "wizard", content: "hi" }] }),
      JSON.stringify({ messages: [{ role: "user" }] }),
      JSON.stringify({ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] }),
      JSON.stringify({ messages: [{ role: "assistant", content: "first" }] }),
      JSON.stringify({ messages: [...user, { role: "tool", tool_call_id: "nope", content: "1" }] }),
      JSON.stringify({ messages: [...user, { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "CityWeather", arguments: "{}" } }] }] }),
      JSON.stringify({ messages: user, tools: [{ type: "function", function: { name: "T", parameters: { type: "object", properties: { x: { $ref: "https://x.test/a.json" } }, required: ["x"], not: { type: "null" } } } }] }),
      JSON.stringify({ messages: user, tools: [{ type: "function", function: { name: "T" } }, { type: "function", function: { name: "T" } }] }),
      JSON.stringify({ messages: user, tools: [{ type: "retrieval" }] }),
      JSON.stringify({ messages: user, tools, tool_choice: "sometimes" }),
      JSON.stringify({ messages: user, tools, tool_choice: { type: "function", function: { name: "Nope" } } }),
      JSON.stringify({ messages: user, temperature: 9 }),
      JSON.stringify({ messages: user, n: 3 }),
      JSON.stringify({ messages: user, max_tokens: 0 }),
      // A JSON answer beside tools whose schema the grammar cannot hold: refused before any step.
      JSON.stringify({ messages: user, response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object", properties: { x: { $ref: "https://x.test/a.json" } }, required: ["x"] } } }, tools }),
    ];
    expect(bad).toHaveLength(20);
    for (const body of bad) {
      const response = await post(body);
      expect(response.status, body).toBeGreaterThanOrEqual(400);
      expect(response.status, body).toBeLessThan(500);
      const error = ((await response.json()) as { error: { message: string; type: string } }).error;
      expect(error.type).toBe("invalid_request_error");
      expect(error.message.length).toBeGreaterThan(0);
    }
    // Streamed, a request refused before its step starts gets its status too, not a 200 with an error event.
    for (const body of [bad[5]!, bad[9]!, bad[15]!, JSON.stringify({ messages: user, tools: [], tool_choice: "required" })]) {
      const response = await post(JSON.stringify({ ...JSON.parse(body), stream: true }));
      expect(response.status, body).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
    }
    const refusedSchema = await post(bad[11]!);
    expect(((await refusedSchema.json()) as { error: { message: string } }).error.message).toContain("$ref");
    const tooLarge = await post(JSON.stringify({ messages: [{ role: "user", content: "x".repeat(5 * 1024 * 1024) }] }));
    expect(tooLarge.status).toBe(413);
    expect((await fetch(`${server.url}/v1/nowhere`)).status).toBe(404);
    const { answer } = await toolLoop(false);
    expect(answer).toMatch(/18/);
  });
});

describe("narrowgauge serve, a client that disconnects", () => {
  it("answers 503 with Retry-After when every slot stays busy past the queue's bound", async () => {
    const tiny = llamaModelPort(await openModel({ source: "tiny", llama: await testLlama(), sequences: 1 }));
    const single = await startChatServer({ model: tiny, queueTimeoutMs: 100, step: { thoughtMaxLength: 1000, maxTokensPerStep: 2000 } });
    try {
      const holder = new AbortController();
      const held = await fetch(`${single.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, signal: holder.signal, body: JSON.stringify({ messages: [{ role: "user", content: WEATHER_TASK }], tools, stream: true }) });
      const reader = held.body!.getReader();
      while (!new TextDecoder().decode((await reader.read()).value).includes("reasoning_content"));
      const busy = await fetch(`${single.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: WEATHER_TASK }], tools }) });
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("1");
      expect(((await busy.json()) as { error: { code: string } }).error.code).toBe("slots_busy");
      holder.abort();
    } finally {
      await single.close();
      await tiny.dispose();
    }
  });

  it("frees its slot mid-stream, well before the stream would have ended by itself", async () => {
    // The random model with one slot and a long thought: a stream that would go on for a while once its thought starts.
    const tiny = llamaModelPort(await openModel({ source: "tiny", llama: await testLlama(), sequences: 1 }));
    const single = await startChatServer({ model: tiny, step: { thoughtMaxLength: 1000, maxTokensPerStep: 2000 } });
    const body = JSON.stringify({ messages: [{ role: "user", content: WEATHER_TASK }], tools, stream: true });
    /** Streams a request until its thought starts; then `drop()` disconnects it, and `ended` is when its stream ended by itself. */
    const hold = async () => {
      const controller = new AbortController();
      const response = await fetch(`${single.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, signal: controller.signal, body });
      const reader = response.body!.getReader();
      while (!new TextDecoder().decode((await reader.read()).value).includes("reasoning_content"));
      const started = performance.now();
      const ended = (async () => {
        while (!(await reader.read()).done);
        return performance.now() - started;
      })().catch(() => null);
      return { drop: () => controller.abort(), ended };
    };
    try {
      // Left alone, the stream goes on for a while after its thought starts, measured here on this machine as it is now (no wall-clock bound a loaded machine would break).
      const control = await hold();
      const byItself = (await control.ended) ?? Number.POSITIVE_INFINITY;
      const held = await hold();
      held.drop();
      const next = await fetch(`${single.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: WEATHER_TASK }], tools }) });
      const answered = (await next.json()) as { narrowgauge: { ms: { waited: number } } };
      expect(next.status).toBe(200);
      // A slot kept until the dropped stream ended by itself would make the next request wait most of that time.
      expect(answered.narrowgauge.ms.waited).toBeLessThan(byItself / 2);
    } finally {
      await single.close();
      await tiny.dispose();
    }
  });
});

describe("narrowgauge serve's API key", () => {
  it("answers 401 without the Bearer token and serves /health without one", async () => {
    const keyed = await startChatServer({ model, apiKey: "sesame" });
    try {
      expect((await fetch(`${keyed.url}/v1/models`)).status).toBe(401);
      expect((await fetch(`${keyed.url}/v1/models`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await fetch(`${keyed.url}/health`)).status).toBe(200);
      const models = await new OpenAI({ baseURL: `${keyed.url}/v1`, apiKey: "sesame" }).models.list();
      expect(models.data.map((entry) => entry.id)).toEqual([model.description.name]);
    } finally {
      await keyed.close();
    }
  });
});

describe("narrowgauge serve, a JSON answer beside tools", () => {
  it("response_format json_schema with tools: the tool loop ends in JSON of the schema, each city with its own numbers", async () => {
    const schema = { type: "object", properties: { cities: { type: "array", items: { type: "object", properties: { city: { type: "string" }, temperatureC: { type: "number" }, conditions: { type: "string" } }, required: ["city", "temperatureC", "conditions"] }, minItems: 1, maxItems: 2 } }, required: ["cities"] };
    const messages: Message[] = [{ role: "user", content: WEATHER_TASK }];
    let content: string | null = null;
    for (let steps = 1; steps <= 6 && content === null; steps++) {
      const message = (await client.chat.completions.create({ model: "demo", messages, tools, response_format: { type: "json_schema", json_schema: { name: "weather", schema, strict: true } } })).choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) content = message.content;
      for (const call of message.tool_calls ?? []) {
        if (call.type !== "function") throw new TypeError("a function call was expected");
        messages.push({ role: "tool", tool_call_id: call.id, content: await runChatTool(weatherTools, call.function.name, JSON.parse(call.function.arguments)) });
      }
    }
    const answer = JSON.parse(content!) as { cities: Array<{ city: string; temperatureC: number; conditions: string }> };
    expect(Object.fromEntries(answer.cities.map((entry) => [entry.city, [entry.temperatureC, entry.conditions]]))).toEqual({ Paris: [18, "light rain"], "New York": [24, "sunny"] });
  });
});

