import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { chatTools, runChatTool } from "../helpers/chat-tools.js";
import { forProcesses } from "../helpers/cli.js";
import { hasNginx, startNginx } from "../helpers/nginx.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

const tools = chatTools(weatherTools);

/**
 * Scale-out on an engine users already run: two `narrowgauge serve`
 * replicas behind nginx, 20 conversations spread over both by a
 * session-affinity header, one replica killed midway. The server's state is
 * the messages, so the other replica answers the killed one's conversations
 * from their next step on.
 */
describe.skipIf(!hasNginx)("two narrowgauge serve replicas behind nginx", () => {
  let replicas: ServeProcess[] = [];
  let balancer: { url: string; stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    replicas = await Promise.all(["replica-a", "replica-b"].map((name) => startServeProcess("--model", "demo", "--name", name, "--profile", "sub1b", "--max-turns", "6", "--allowed-host", "replicas")));
    balancer = await startNginx(replicas.map((replica) => replica.url));
  }, forProcesses(2));

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it("answers all 20 conversations when one replica is killed midway", async () => {
    // Each step: who answered it, whether it was sent after the kill, and whether its answer came after it (a step in flight then may have moved).
    const steps: Array<{ conversation: number; replica: string; sentAfterKill: boolean; answeredAfterKill: boolean }> = [];
    let killed = false;
    const converse = async (conversation: number): Promise<string | null> => {
      const client = new OpenAI({ baseURL: `${balancer!.url}/v1`, apiKey: "unused", maxRetries: 0, defaultHeaders: { "x-session-id": `conversation-${conversation}` } });
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: WEATHER_TASK }];
      for (let step = 0; step < 6; step++) {
        const sentAfterKill = killed;
        const completion = await client.chat.completions.create({ model: "demo", messages, tools });
        steps.push({ conversation, replica: completion.model, sentAfterKill, answeredAfterKill: killed });
        // Midway: once 20 of the conversations' 60-odd steps are answered, the first replica is killed.
        if (steps.length === 20) {
          replicas[0]!.kill("SIGKILL");
          killed = true;
        }
        const message = completion.choices[0]!.message;
        messages.push(message);
        if (!message.tool_calls?.length) return message.content;
        for (const call of message.tool_calls) {
          if (call.type === "function") messages.push({ role: "tool", tool_call_id: call.id, content: await runChatTool(weatherTools, call.function.name, JSON.parse(call.function.arguments)) });
        }
      }
      return null;
    };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, conversation) => converse(conversation)));
    for (const answer of answers) {
      expect(answer).toMatch(/18/);
      expect(answer).toMatch(/24/);
    }
    const before = steps.filter((step) => !step.answeredAfterKill);
    expect(new Set(before.map((step) => step.replica))).toEqual(new Set(["replica-a", "replica-b"]));
    expect(steps.filter((step) => step.sentAfterKill && step.replica === "replica-a")).toEqual([]);
    // Conversations that replica-a had begun went on, on replica-b.
    const moved = new Set(steps.filter((step) => step.answeredAfterKill && step.replica === "replica-b" && before.some((earlier) => earlier.conversation === step.conversation && earlier.replica === "replica-a")).map((step) => step.conversation));
    expect(moved.size).toBeGreaterThan(0);
    // The affinity header kept each conversation on one replica while both ran.
    for (let conversation = 0; conversation < 20; conversation++) {
      expect(new Set(before.filter((step) => step.conversation === conversation).map((step) => step.replica)).size).toBeLessThanOrEqual(1);
    }
  }, 300_000);
});
