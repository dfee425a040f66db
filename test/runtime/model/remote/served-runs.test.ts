import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectServer, loadModel, runAgent, startLlamaServer, type LlamaModelPort, type RunningServer, type RunResult } from "../../../../index.js";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { hasLlama2Fixture, hasTrainedFixture, LLAMA2_FIXTURE, TRAINED_FIXTURE } from "../../../helpers/fixture.js";
import { hasServer, SERVER_BINARY } from "../../../helpers/llama-server.js";

/** What must be equal between a run in process and the same run on a server, turn by turn. */
const steps = (result: RunResult) =>
  result.turns.map((turn) => ({ raw: turn.raw, prompt: turn.prompt, generated: turn.generatedTokens, visible: turn.visible, check: turn.check, tool: turn.tool?.name }));

const MODELS = [
  { name: "the built-in tiny model", source: "tiny:1", present: true },
  { name: "the Llama-2 fixture", source: LLAMA2_FIXTURE, present: hasLlama2Fixture },
  { name: "the trained fixture", source: TRAINED_FIXTURE, present: hasTrainedFixture },
];

describe.skipIf(!hasServer)("a run on llama-server equals the same run in process (greedy)", () => {
  for (const { name, source, present } of MODELS) {
    describe.skipIf(!present)(name, () => {
      let local: LlamaModelPort;
      let server: RunningServer;
      beforeAll(async () => {
        local = await loadModel(source);
        server = await startLlamaServer({ model: local.opened.file, binary: SERVER_BINARY, slots: 2 });
      }, 120_000);
      afterAll(async () => {
        await server?.stop();
        await local?.dispose();
      });

      it("takes the same steps, turn by turn, and reports the server's own prompt reuse", async () => {
        const remote = await connectServer(server.url);
        try {
          const options = { tools: weatherTools, task: WEATHER_TASK, maxTurns: 6 };
          const inProcess = await runAgent({ ...options, model: local });
          const served = await runAgent({ ...options, model: remote });
          expect(steps(served)).toEqual(steps(inProcess));
          expect(served.reason).toBe(inProcess.reason);
          expect(served.status === "answered" ? served.answer : null).toBe(inProcess.status === "answered" ? inProcess.answer : null);
          // After the first turn only the new tail of the prompt is evaluated: the server reused its cache.
          for (const turn of served.turns.slice(1)) expect(turn.prompt.evaluated).toBeLessThan(turn.prompt.tokens / 2);
          expect(served.model.server).toEqual({ urls: [server.url], builds: [expect.stringMatching(/\S/)] });
          expect(served.model.file).toBe(local.opened.file);
        } finally {
          await remote.dispose();
        }
      }, 120_000);
    });
  }
});
