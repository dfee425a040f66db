import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ProbeReportSchema } from "../../probe/report.js";
import { runProbe } from "../../probe/run-probe.js";
import { loadScenarios } from "../../probe/scenario.js";
import { renderProbeHtml } from "../../probe/report-page.js";
import { renderTrace } from "../../trace/render-trace.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { llamaModelPort } from "../../runtime/backends/llama/load-model.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { createAgentSession } from "../../runtime/loop/agent-session.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { hasChromium, launchChromium } from "../helpers/browser.js";
import { testLlama } from "../helpers/llama.js";

const call = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });

/** Where CI keeps what a person may want to look at after the run. */
const ARTIFACTS = join(import.meta.dirname, "..", "..", ".ci", "artifacts");

describe.skipIf(!hasChromium)("the HTML trace viewer in a real browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** A page opened from its file, checked to ask the network for nothing while it loads. */
  async function openOffline(file: string) {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (request) => request.url().startsWith("file:") || requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([]);
    return page;
  }

  it("shows every turn, every guard decision and the answer of a real run", async () => {
    const port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6 }).finally(() => port.dispose());
    expect(result.status).toBe("answered");
    const file = join(await mkdtemp(join(tmpdir(), "narrowgauge-trace-")), "trace.html");
    await writeFile(file, renderTrace(result));

    // Self-contained: the page asks the network for nothing.
    const page = await openOffline(file);
    expect(await page.locator("[data-turn]").count()).toBe(result.turns.length);
    const decisions = result.turns.reduce((total, turn) => total + turn.guards.length, 0);
    expect(decisions).toBeGreaterThan(0);
    expect(await page.locator("[data-decision]").count()).toBe(decisions);
    // The first turn shows what the grammar allowed and why: CityWeather alone, narrowed to the two cities, FinalAnswer hidden.
    const first = page.locator('[data-turn="1"]');
    expect(await first.locator("[data-allowed]").allTextContents()).toEqual(["CityWeather"]);
    expect(await first.locator('[data-final="false"]').count()).toBe(1);
    expect(await first.locator('[data-domain="CityWeather.city"]').textContent()).toContain("Paris, New York");
    expect(await first.locator('[data-guard="G2"]').textContent()).toContain("FinalAnswer hidden");
    expect(await page.locator("#answer").textContent()).toBe(result.answer);
    expect(await page.locator("[data-status]").textContent()).toBe("answered");
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "trace.png"), fullPage: true });
    await page.close();
  });

  it("shows what left a conversation's prompt, and which server sampled each turn after a failover", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("Paris: 18°C."), call("CityWeather", { city: "Tokyo" }), final("Tokyo: 27°C.")], { contextSize: 2600 });
    const chat = createAgentSession({ model, tools: weatherTools, profile: "large", stepReserve: 300, toolShare: 1 });
    await chat.ask("Weather in Paris?");
    const result = await chat.ask("Weather in Tokyo?");
    chat.close();
    expect(result.dropped).toHaveLength(1);
    // A served turn's record, as a failover leaves it (the run itself is scripted; records are frozen, so a copy).
    const [first, ...rest] = result.turns;
    const served = { ...result, turns: [{ ...first!, server: { url: "http://127.0.0.1:8081", failover: { from: ["http://127.0.0.1:8080"], kinds: ["connection-lost"], ms: 38, evaluated: 1512 } } }, ...rest] };
    const file = join(await mkdtemp(join(tmpdir(), "narrowgauge-trace-")), "trace.html");
    await writeFile(file, renderTrace(served));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator("#dropped [data-dropped]").textContent()).toContain("“Weather in Paris?”");
    expect(await page.locator("#dropped").textContent()).toContain("no longer grounding: 18");
    expect(await page.locator('[data-turn="1"] [data-failover]').textContent()).toBe("http://127.0.0.1:8081 — after http://127.0.0.1:8080 failed (connection-lost): 38 ms lost, 1512 prompt tokens evaluated again");
    await page.close();
  });

  it("renders the probe report with a chart per measure, by architecture", async () => {
    const scenarios = (await loadScenarios()).filter((scenario) => ["dual-op-weather", "timeless"].includes(scenario.id));
    const port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    const report = await runProbe({ model: port, scenarios, architectures: ["A", "B", "C"] }).finally(() => port.dispose());
    expect(ProbeReportSchema).toBeDefined();
    const file = join(await mkdtemp(join(tmpdir(), "narrowgauge-probe-")), "probe.html");
    await writeFile(file, renderProbeHtml(report));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator("figure[data-measure]").count()).toBe(4);
    expect(await page.locator('figure[data-measure="solved"] rect[data-arch]').count()).toBe(3);
    expect(await page.locator('tr[data-arch="C"] td').first().textContent()).toBe("C");
    await page.screenshot({ path: join(ARTIFACTS, "probe.png"), fullPage: true });
    await page.close();
  });

  it("runs no script and asks for nothing from a crafted run file (an attachment to a bug report)", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("18°C.")]);
    const result = JSON.parse(JSON.stringify(await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" })));
    const attack = '"><img src="https://attacker.example/x" onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';
    Object.assign(result, { reason: attack, status: attack });
    Object.assign(result.turns[0], { check: attack, index: attack });
    result.turns[0].guards.push({ kind: attack, guard: "G9", reason: attack });
    const file = join(await mkdtemp(join(tmpdir(), "narrowgauge-trace-")), "crafted.html");
    await writeFile(file, renderTrace(result));
    const page = await openOffline(file);
    expect(await page.title()).not.toBe("pwned");
    expect(await page.locator("img, script").count()).toBe(0);
    expect(await page.locator("[data-reason]").textContent()).toBe(attack);
  });
});

