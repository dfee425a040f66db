import { describe, expect, it } from "vitest";
import { forProcesses } from "../helpers/cli.js";
import { startServeProcess } from "../helpers/serve-process.js";

/** The id `narrowgauge serve` reports in /v1/models, which the docs' clients send as `model`. */
async function servedId(...args: string[]): Promise<string> {
  const served = await startServeProcess(...args);
  try {
    const listed = (await (await fetch(`${served.url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    return listed.data.map((entry) => entry.id).join(",");
  } finally {
    await served.stop();
  }
}

describe("narrowgauge serve's model id", () => {
  it("is the built-in model's own short name (demo, tiny), as docs/compatible.md's clients send it; --name wins", async () => {
    expect(await servedId()).toBe("demo");
    expect(await servedId("--model", "tiny", "--name", "weather")).toBe("weather");
  }, forProcesses(2));
});
