import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectServer, loadModel, runAgent, startLlamaServer, type RemoteModelPort, type RunEvent, type RunningServer, type RunResult } from "../../../../index.js";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { hasTrainedFixture, TRAINED_FIXTURE } from "../../../helpers/fixture.js";
import { hasServer, SERVER_BINARY } from "../../../helpers/llama-server.js";

/** What must be equal between a run with a failover and its twin on a healthy server, turn by turn. */
const steps = (result: RunResult) => result.turns.map((turn) => ({ raw: turn.raw, tokens: turn.prompt.tokens, generated: turn.generatedTokens, visible: turn.visible, check: turn.check, tool: turn.tool?.name }));
const outcome = (result: RunResult) => ({ status: result.status, reason: result.reason, answer: result.answer, error: result.error });
const OPTIONS = { tools: weatherTools, task: WEATHER_TASK, maxTurns: 4 };
/** Short limits, so a stalled server is found out in a second, and a quick first probe. */
const LIMITS = { answerMs: 4000, idleMs: 1000, connectMs: 3000, probeMs: 200, maxProbeMs: 1000 };

/** An onEvent that acts once, as the second step's text starts streaming (that step is mid-generation). */
const duringSecondStep = (act: () => void) => {
  let done = false;
  return (event: RunEvent) => {
    if (event.type !== "text" || event.index !== 2 || done) return;
    done = true;
    act();
  };
};

const until = async (what: () => boolean, ms: number) => {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (what()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return what();
};

describe.skipIf(!hasServer)("a server that fails under a run: the run moves to another server of its group and goes on", () => {
  let tinyFile: string;
  const servers: RunningServer[] = [];
  const ports: RemoteModelPort[] = [];
  const start = async (port?: number) => {
    const server = await startLlamaServer({ model: tinyFile, binary: SERVER_BINARY, slots: 1, slotContext: 4096, ...(port ? { port } : {}) });
    servers.push(server);
    return server;
  };
  const connect = async (urls: string[]) => {
    const model = await connectServer(urls, LIMITS);
    ports.push(model);
    return model;
  };
  /** The server a run is on right now: the one with a busy slot. */
  const serving = (model: RemoteModelPort) => Object.entries(model.busySlots()).find(([, busy]) => busy > 0)?.[0];
  let twin: RunResult;

  beforeAll(async () => {
    const local = await loadModel("tiny:1");
    tinyFile = local.opened.file;
    await local.dispose();
    const healthy = await start();
    twin = await runAgent({ ...OPTIONS, model: await connect([healthy.url]) });
    expect(twin.turns.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
  afterEach(async () => {
    for (const model of ports.splice(0)) await model.dispose();
  });
  afterAll(async () => {
    for (const server of servers) {
      if (server.process.signalCode === null && server.process.exitCode === null) server.process.kill("SIGCONT");
      await server.stop();
    }
  });

  it("SIGKILLed during a step's generation: the step is sent again on the other server, and the run equals its twin", async () => {
    const [a, b] = [await start(), await start()];
    const model = await connect([a.url, b.url]);
    let killed: string | undefined;
    const result = await runAgent({
      ...OPTIONS,
      model,
      onEvent: duringSecondStep(() => {
        killed = serving(model);
        servers.find((server) => server.url === killed)!.process.kill("SIGKILL");
      }),
    });
    expect(killed).toBe(a.url);
    expect(steps(result)).toEqual(steps(twin));
    expect(outcome(result)).toEqual(outcome(twin));
    expect(result.turns[0]!.server).toEqual({ url: a.url, failover: null });
    expect(result.turns[1]!.server).toMatchObject({ url: b.url, failover: { from: [a.url], kinds: ["connection-lost"] } });
    // The new slot held nothing of the run: it evaluated the whole prompt.
    expect(result.turns[1]!.server!.failover!.evaluated).toBe(result.turns[1]!.prompt.evaluated);
    expect(result.turns[1]!.prompt.evaluated).toBeGreaterThan(result.turns[1]!.prompt.tokens / 2);
    expect(model.health()[a.url]).toMatchObject({ healthy: false });
    expect(model.health()[b.url]).toEqual({ healthy: true });
  }, 120_000);

  it("SIGKILLed between two steps: the next step goes to the other server, and the run equals its twin", async () => {
    const [a, b] = [await start(), await start()];
    const model = await connect([a.url, b.url]);
    const result = await runAgent({ ...OPTIONS, model, onEvent: (event) => event.type === "turn-start" && event.index === 2 && a.process.kill("SIGKILL") });
    expect(steps(result)).toEqual(steps(twin));
    expect(outcome(result)).toEqual(outcome(twin));
    expect(result.turns[1]!.server).toMatchObject({ url: b.url, failover: { from: [a.url] } });
  }, 120_000);

  it("stalled (SIGSTOP) mid-step: a timeout moves the run on; resumed, the server passes a probe and gets runs again", async () => {
    const [a, b] = [await start(), await start()];
    const model = await connect([a.url, b.url]);
    const result = await runAgent({ ...OPTIONS, model, onEvent: duringSecondStep(() => a.process.kill("SIGSTOP")) });
    expect(steps(result)).toEqual(steps(twin));
    expect(result.turns[1]!.server).toMatchObject({ url: b.url, failover: { from: [a.url], kinds: ["timeout"] } });
    expect(model.health()[a.url]).toMatchObject({ healthy: false });
    a.process.kill("SIGCONT");
    expect(await until(() => model.health()[a.url]!.healthy, 15_000)).toBe(true);
    // Both are in rotation again: two runs at once take one slot of each.
    const busy: Array<Record<string, number>> = [];
    await Promise.all([0, 1].map(() => runAgent({ ...OPTIONS, maxTurns: 1, model, onEvent: (event) => event.type === "turn-start" && busy.push(model.busySlots()) })));
    expect(busy.some((slots) => slots[a.url] === 1 && slots[b.url] === 1)).toBe(true);
  }, 120_000);

  it("three servers, concurrent runs, one killed mid-run: every run ends as its twin; restarted on its port, the server is taken back", async () => {
    const group = [await start(), await start(), await start()];
    const model = await connect(group.map((server) => server.url));
    const victim = group[0]!;
    // Whichever run reaches its second step first kills the victim, once.
    const kill = duringSecondStep(() => victim.process.kill("SIGKILL"));
    const results = await Promise.all([0, 1, 2].map(() => runAgent({ ...OPTIONS, model, onEvent: kill })));
    for (const result of results) {
      expect(steps(result)).toEqual(steps(twin));
      expect(outcome(result)).toEqual(outcome(twin));
    }
    expect(results.filter((result) => result.turns.some((turn) => turn.server?.failover))).toHaveLength(1);
    expect(model.health()[victim.url]).toMatchObject({ healthy: false });

    await start(Number(new URL(victim.url).port));
    expect(await until(() => model.health()[victim.url]!.healthy, 20_000)).toBe(true);
    const served = await Promise.all([0, 1, 2].map(() => runAgent({ ...OPTIONS, maxTurns: 1, model })));
    expect(new Set(served.map((result) => result.turns[0]!.server!.url))).toEqual(new Set(group.map((server) => server.url)));
  }, 180_000);

  it("with no healthy server left the run ends server-failed, as with one server", async () => {
    const [a, b] = [await start(), await start()];
    const model = await connect([a.url, b.url]);
    const result = await runAgent({
      ...OPTIONS,
      model,
      onEvent: (event) => {
        if (event.type === "turn-start" && event.index === 2) for (const server of [a, b]) server.process.kill("SIGKILL");
      },
    });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", error: { code: "server-failed" } });
    expect(result.turns).toHaveLength(1);
    // A run that starts while none is back fails at once, rather than wait for a probe to pass.
    const started = performance.now();
    const next = await runAgent({ ...OPTIONS, model });
    expect(next).toMatchObject({ status: "failed", reason: "model-error", error: { code: "server-failed", message: expect.stringContaining("no server of the group is in rotation") } });
    expect(performance.now() - started).toBeLessThan(2000);
  }, 120_000);

  it.skipIf(!hasTrainedFixture)("the trained model on two servers, the first SIGKILLed mid-step, answers the demo task as its twin on a healthy server", async () => {
    const start = (model: string) => startLlamaServer({ model, binary: SERVER_BINARY, slots: 1 }).then((server) => (servers.push(server), server));
    const [healthy, a, b] = [await start(TRAINED_FIXTURE), await start(TRAINED_FIXTURE), await start(TRAINED_FIXTURE)];
    const task = { tools: weatherTools, task: WEATHER_TASK };
    const alone = await runAgent({ ...task, model: await connect([healthy.url]) });
    const model = await connect([a.url, b.url]);
    const result = await runAgent({ ...task, model, onEvent: duringSecondStep(() => a.process.kill("SIGKILL")) });
    expect(alone).toMatchObject({ status: "answered", answer: expect.stringMatching(/18.*24/) });
    expect(outcome(result)).toEqual(outcome(alone));
    expect(steps(result)).toEqual(steps(alone));
    expect(result.turns[1]!.server).toMatchObject({ url: b.url, failover: { from: [a.url], kinds: ["connection-lost"] } });
  }, 120_000);
});
