import { describe, expect, it } from "vitest";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../helpers/fixture.js";
import { testLlama } from "../helpers/llama.js";
import { hasServer, SERVER_BINARY } from "../helpers/llama-server.js";
import { soak, VIOLATIONS } from "./soak.js";

describe("the adversarial soak, small", () => {
  it("50 runs (conversations' asks and served runs with a server killed or stalled among them): no crash, no hang, one end reason each, no invalid arguments, no disabled tool run, no silent ungrounded answer, twins equal", async () => {
    // A seed's plan depends on whether served runs are among its draws: 7's without a server spends 48 of its 50 runs on two
    // conversations and runs none at once, 8's runs 26 at once beside one conversation.
    const report = await soak({ runs: 50, seed: hasServer ? 7 : 8, llama: await testLlama(), fixture: hasLlama2Fixture ? LLAMA2_FIXTURE : null, server: hasServer ? SERVER_BINARY : null });
    expect(report.runs).toBe(50);
    expect(Object.fromEntries(VIOLATIONS.map((kind) => [kind, report.violations[kind]]))).toEqual(Object.fromEntries(VIOLATIONS.map((kind) => [kind, []])));
    expect(report.concurrentRuns).toBeGreaterThan(0);
    expect(report.asks).toBeGreaterThanOrEqual(10);
    if (hasServer) expect(report.servedRuns).toBeGreaterThan(0);
  }, 600_000);
});
