import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { generateText, stepCountIs, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { llamaModelPort, openModel, type LlamaModelPort } from "../../index.js";
import { startChatServer, type ChatServer } from "../../serve/chat-server.js";
import { aiSdkTools } from "../helpers/ai-sdk-tools.js";
import { chatTools, runChatTool } from "../helpers/chat-tools.js";
import { testLlama } from "../helpers/llama.js";

let model: LlamaModelPort;
let server: ChatServer;

beforeAll(async () => {
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
  server = await startChatServer({ model, name: "demo", step: { profile: "sub1b", maxTurns: 6 } });
});
afterAll(async () => {
  await server?.close();
  await model?.dispose();
});

describe("narrowgauge serve, through the AI SDK's OpenAI-compatible provider", () => {
  const provider = () => createOpenAICompatible({ name: "narrowgauge", baseURL: `${server.url}/v1` });

  it("generateText with tools and stopWhen answers the demo task", async () => {
    const result = await generateText({ model: provider()("demo"), tools: aiSdkTools(weatherTools), stopWhen: stepCountIs(5), prompt: WEATHER_TASK });
    expect(result.text).toMatch(/18/);
    expect(result.text).toMatch(/24/);
    expect(result.steps[0]!.reasoningText).toBe("Need Paris first.");
  });

  it("streamText streams it", async () => {
    const result = streamText({ model: provider()("demo"), tools: aiSdkTools(weatherTools), stopWhen: stepCountIs(5), prompt: WEATHER_TASK });
    const text = await result.text;
    expect(text).toMatch(/18/);
    expect(text).toMatch(/24/);
  });
});

describe("narrowgauge serve, through LangChain's ChatOpenAI", () => {
  it("bindTools answers the demo task in LangChain's own tool loop", async () => {
    const chat = new ChatOpenAI({ model: "demo", apiKey: "unused", configuration: { baseURL: `${server.url}/v1` }, maxRetries: 0 }).bindTools(chatTools(weatherTools));
    const messages: BaseMessage[] = [new HumanMessage(WEATHER_TASK)];
    let reply: AIMessage | undefined;
    for (let step = 0; step < 5; step++) {
      reply = (await chat.invoke(messages)) as AIMessage;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) messages.push(new ToolMessage({ tool_call_id: call.id!, content: await runChatTool(weatherTools, call.name, call.args) }));
    }
    expect(reply!.tool_calls ?? []).toEqual([]);
    expect(String(reply!.content)).toMatch(/18/);
    expect(String(reply!.content)).toMatch(/24/);
  });
});
