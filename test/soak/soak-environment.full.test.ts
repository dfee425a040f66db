import { describe, expect, it } from "vitest";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { testLlama } from "../helpers/llama.js";
import { HOSTILITIES } from "./hostile-environment.js";
import { ENVIRONMENT_VIOLATIONS, soakEnvironment } from "./soak-environment.js";

describe("the hostile-environment soak, small", () => {
  it("tools that throw the unprintable or exit, MCP servers that die, page forever or lie, llama-servers that stall, flood or lie: no violation", async () => {
    let unhandled = 0;
    const onUnhandled = () => unhandled++;
    process.on("unhandledRejection", onUnhandled);
    try {
      const report = await soakEnvironment({ runs: 48, seed: 11, llama: await testLlama(), vocabulary: await tinyModelFile(1) });
      expect(report.runs).toBe(48);
      for (const kind of HOSTILITIES) expect(report.kinds[kind], kind).toBeGreaterThan(0);
      for (const kind of ENVIRONMENT_VIOLATIONS) expect(report.violations[kind], kind).toEqual([]);
      expect(report.endings.refused).toBeGreaterThan(0);
      expect(unhandled).toBe(0);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  }, 600_000);
});
