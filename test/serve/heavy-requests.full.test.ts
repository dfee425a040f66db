import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heavyCases, heavyTable, measureHeavyRequests, median, serverPid, soloMedian, type HeavyReport } from "../../bench/serve/heavy-requests.js";
import { forProcesses } from "../helpers/cli.js";
import { startServeProcess, type ServeProcess } from "../helpers/serve-process.js";

/** /health's bound while a heavy request is in flight (docs/compatible.md, "What one request may cost"). */
const HEALTH_MS = 1_000;
/**
 * The second client's step may take 2× its solo time (the median of the
 * same step alone in this run, before each heavy request and after the
 * last), plus this much: a step of the demo model alone is about 100 ms on
 * a 2-core machine, and one scheduling hiccup of another process is tens of
 * ms; a heavy request that held the event loop holds it for far longer.
 */
const ALLOWANCE_MS = 100;
/** Rounds per heavy request: the step's median of 5 stands where one slow step would not. */
const ROUNDS = 5;
/** What a heavy request may be answered: a typed answer, a refusal (400, 413, 503), or, for a body left unfinished, nothing until the client closes it. */
const ALLOWED = /^(200|400 \S+|413 \S+|503 \S+|reading)$/;

let server: ServeProcess;
let report: HeavyReport;

beforeAll(async () => {
  server = await startServeProcess("--model", "demo");
  report = await measureHeavyRequests(server.url, { steps: ROUNDS, pid: serverPid(server.child.pid!) });
  console.log(heavyTable(report));
  // Each case runs ROUNDS rounds within its bound (60 s at most, a refusal far less), its solo steps beside them.
}, forProcesses(1) + 10 * 60_000);
afterAll(async () => {
  await server?.stop();
});

const rowOf = (name: string) => report.rows.find((row) => row.name === name)!;

describe("narrowgauge serve under one heavy request at a time (a real `narrowgauge serve --model demo` process, a second client beside it)", () => {
  it.each(heavyCases().map((heavy) => heavy.name))("%s: answered 2xx or 4xx (never 500) within its bound", (name) => {
    const row = rowOf(name);
    expect(row.answers.filter((answer) => !ALLOWED.test(answer)), row.answers.join(", ")).toEqual([]);
    expect(row.heavyLongestMs).toBeLessThan(row.boundMs);
  });

  it.each(heavyCases().map((heavy) => heavy.name))("%s: /health answers within 1 s all along", (name) => {
    const row = rowOf(name);
    expect(row.health.failed).toBe(0);
    expect(row.health.maxMs).toBeLessThan(HEALTH_MS);
  });

  it.each(heavyCases().map((heavy) => heavy.name))("%s: the other client's ordinary step is answered; within 2× its solo time beside a request refused before the model runs", (name) => {
    const row = rowOf(name);
    expect(row.steps.map((step) => step.label)).toEqual(row.steps.map(() => "200"));
    // A heavy request the server answers by running the model shares the model and both cores with the step, as any other request
    // does (the control row: another ordinary step costs it about 2× on two cores, and may take the slot whose cache the step would
    // have reused); and the largest request the bounds admit is compiled and rendered on the event loop before the context refuses
    // it (about half a second here). Those costs are reported in the table, not bounded here. A request the cheap bounds refuse
    // must cost the step nothing.
    if (row.answers.every((answer) => answer.startsWith("200")) || row.name.includes("most admitted")) return;
    const solo = soloMedian(report);
    expect(median(row.steps.map((step) => step.ms)), `solo ${solo.toFixed(0)} ms`).toBeLessThanOrEqual(2 * solo + ALLOWANCE_MS);
  });

  it("every solo step, the last after the heaviest requests, is answered 200 (the bodies' budget was given back)", () => {
    expect(report.solo.filter((step) => step.label !== "200")).toEqual([]);
  });
});
