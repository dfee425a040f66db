/**
 * npm run bench:serve-heavy -- [--url http://127.0.0.1:8080] [--steps 3] [--flood]
 *
 * Each heavy request a client can send `narrowgauge serve` (a catastrophic
 * `pattern` at sampling and at declaration, 8,000 required properties, 4,000
 * under the schema bound, a 4 MiB message, 5,000 tools, 100 unfinished 4 MiB
 * bodies), after a control (another ordinary step), each in `--steps`
 * rounds: a round sends it (or, with `--flood`, sends it back to back) as a
 * second client starts the demo's ordinary step (the weather task, not
 * streamed), while `/health` is polled every 100 ms. The same step alone,
 * before each heavy request and after the last, is the solo time it is
 * compared with, in the same run. The contract (docs/compatible.md, "What
 * one request may cost"): while a heavy request is in flight `/health`
 * answers within 1 s and the ordinary step within 2× its solo time; no heavy
 * request gets a 500 or runs past its bound. Without `--url` it starts
 * `narrowgauge serve --model demo` (4 slots) in its own process, and prints
 * the server's resident memory.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Command } from "commander";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { chatTools } from "../../test/helpers/chat-tools.js";
import { startServeProcess } from "../../test/helpers/serve-process.js";

/** Every heavy request's bound: a step's whole bound (stepMs, 60 s) and the wait for a slot (--queue-timeout, 60 s); a refusal comes far sooner. */
const STEP_BOUND_MS = 60_000;
/** A body that stops arriving is answered 408 after 30 s (docs/compatible.md). */
const BODY_BOUND_MS = 30_000;
const MAX_BODY = 4 * 1024 * 1024;
const POLL_MS = 100;
const CATASTROPHIC = "^(a+)+$";

/** A heavy load on the server while the second client works: stop() waits for it (or ends it) and says how it went. */
type HeavyLoad = { stop(): Promise<{ answers: string[]; longestMs: number }> };

/** "once": the heavy request sent once, as the second client's step starts (the contract: while it is in flight); "flood": sent again as soon as answered, for the whole step. */
export type HeavyMode = "once" | "flood";

/** A heavy request: its name, its documented bound, and how to put it on a server. */
export type HeavyCase = { name: string; boundMs: number; start(url: string, mode: HeavyMode): Promise<HeavyLoad> };

const objectParams = (properties: Record<string, unknown>, required: string[], description = "") => ({ type: "object", description, properties, required, additionalProperties: false });
const wide = (count: number, nonce: string) => objectParams(Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}_${nonce}`, { type: "string" }])), Array.from({ length: count }, (_, index) => `p${index}_${nonce}`), nonce);
const tool = (name: string, parameters: object) => ({ type: "function", function: { name, description: `The ${name} tool.`, parameters } });
const forced = (name: string) => ({ type: "function", function: { name } });
const ask = (content: string) => [{ role: "user", content }];

let sent = 0;
/** One request, sent once or (flood) again until stopped, each within `boundMs` (past it: "timeout"); each new to the server (`body` writes a nonce into its schemas' names), as an attacker's would be, so no cache of compiled schemas helps. */
function repeated(name: string, body: (nonce: string) => object, boundMs = STEP_BOUND_MS): HeavyCase {
  return {
    name,
    boundMs,
    async start(url, mode) {
      const answers: string[] = [];
      let longestMs = 0;
      let stopping = false;
      const loop = (async () => {
        do {
          const text = JSON.stringify(body(`r${(sent += 1)}x${process.pid}`));
          if (Buffer.byteLength(text) > MAX_BODY) throw new Error(`${name}: ${Buffer.byteLength(text)} bytes is over --max-body`);
          const answer = await post(url, text, boundMs);
          answers.push(answer.label);
          longestMs = Math.max(longestMs, answer.ms);
        } while (mode === "flood" && !stopping);
      })();
      return {
        async stop() {
          stopping = true;
          await loop;
          return { answers, longestMs };
        },
      };
    },
  };
}

/** `count` connections that each declare a `--max-body` body, send its first 64 KiB and no more, held until stopped. */
function unfinishedBodies(count: number): HeavyCase {
  return {
    name: `${count} unfinished 4 MiB bodies`,
    boundMs: BODY_BOUND_MS,
    async start(url) {
      const { hostname, port } = new URL(url);
      const started = performance.now();
      const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY}\r\n\r\n`;
      const first = `{"messages":[{"role":"user","content":"${"a".repeat(64 * 1024)}`;
      const statuses: Array<string | null> = Array.from({ length: count }, () => null);
      let longestMs = 0;
      const sockets = statuses.map((_, index) => {
        const socket = connect(Number(port), hostname, () => socket.write(head + first));
        let received = "";
        socket.on("error", () => undefined).on("data", (piece: Buffer) => {
          if (received === "") longestMs = Math.max(longestMs, performance.now() - started);
          received += piece.toString("latin1");
          const code = /"code":"([^"]+)"/.exec(received)?.[1];
          statuses[index] = `${/^HTTP\/1\.1 (\d+)/.exec(received)?.[1] ?? "garbled"}${code ? ` ${code}` : ""}`;
        });
        return socket;
      });
      // Those the budget refuses are answered at once (a second is ample); the rest are left reading.
      await new Promise((wait) => setTimeout(wait, 1_000));
      return {
        async stop() {
          for (const socket of sockets) socket.destroy();
          const reading = statuses.filter((status) => status === null).length;
          if (reading > 0) longestMs = Math.max(longestMs, performance.now() - started);
          return { answers: statuses.map((status) => status ?? "reading"), longestMs };
        },
      };
    },
  };
}

/** The second client's ordinary step: the demo's task with the demo's tools, as a client declares them. */
const ORDINARY = JSON.stringify({ messages: ask(WEATHER_TASK), tools: chatTools(weatherTools) });
const ordinaryStep = (url: string) => post(url, ORDINARY, STEP_BOUND_MS);

/** The heavy requests, each as the server's bounds meet it, after a control. */
export function heavyCases(): HeavyCase[] {
  const echo = (nonce: string) => tool("Echo", objectParams({ [`text_${nonce}`]: { type: "string", pattern: CATASTROPHIC, maxLength: 40 } }, [`text_${nonce}`], nonce));
  // The oneOf check validates each branch's least value against the others: the first branch's, 34 a's and a "!", is what ^(a+)+$ backtracks on for minutes in a backtracking engine.
  const branch = (nonce: string, value: object) => objectParams({ [`s_${nonce}`]: { type: "string", ...value } }, [`s_${nonce}`]);
  const pick = (nonce: string) => tool("Pick", objectParams({ pick: { oneOf: [branch(nonce, { const: `${"a".repeat(34)}!` }), branch(nonce, { pattern: CATASTROPHIC })] } }, ["pick"], nonce));
  const demo = chatTools(weatherTools);
  return [
    // The control: another client's ordinary step is no heavy request; what it costs the second client is what any request in flight costs.
    repeated("control: another ordinary step", () => JSON.parse(ORDINARY) as object),
    repeated("pattern ^(a+)+$ at sampling", (nonce) => ({ messages: ask("Echo forty a's and then a b."), tools: [echo(nonce)], tool_choice: forced("Echo"), max_tokens: 256 })),
    repeated("pattern ^(a+)+$ at declaration (oneOf)", (nonce) => ({ messages: ask(WEATHER_TASK), tools: [pick(nonce), ...demo], max_tokens: 256 })),
    repeated("8,000 required properties (tool)", (nonce) => ({ messages: ask("Fill it in."), tools: [tool("Wide", wide(8_000, nonce))], tool_choice: forced("Wide") })),
    repeated("4,000 required properties (tool)", (nonce) => ({ messages: ask("Fill it in."), tools: [tool("Wide", wide(4_000, nonce))], tool_choice: forced("Wide"), max_tokens: 64 })),
    repeated("4,000 required properties (response_format)", (nonce) => ({ messages: ask("Fill it in."), response_format: { type: "json_schema", json_schema: { name: "wide", schema: wide(4_000, nonce) } }, max_tokens: 64 })),
    // About the largest schema the default bounds admit (its names, written twice, near --max-prompt-chars): its validators and grammar are compiled, then the step runs.
    repeated("600 required properties (tool), about the most admitted", (nonce) => ({ messages: ask("Fill it in."), tools: [tool("Wide", wide(600, nonce))], tool_choice: forced("Wide"), max_tokens: 64 })),
    repeated("4 MiB message", () => ({ messages: ask("a".repeat(MAX_BODY - 64)) })),
    repeated("5,000 tools", (nonce) => ({ messages: ask(WEATHER_TASK), tools: Array.from({ length: 5_000 }, (_, index) => tool(`Tool${index}`, objectParams({ [`x_${nonce}`]: { type: "string" } }, [`x_${nonce}`], nonce))) })),
    unfinishedBodies(100),
  ];
}

/** A POST's status and error code ("400 too_many_tools"; "timeout" past its bound, "failed" where the connection broke), its ms, and the prompt tokens its step evaluated (the rest came from its slot's KV cache). */
export type Answer = { label: string; ms: number; evaluated: number | null };

async function post(url: string, body: string, boundMs: number): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(boundMs) });
    const answer = (await response.json().catch(() => ({ error: { code: "not-json" } }))) as { error?: { code?: unknown }; narrowgauge?: { tokens?: { evaluated?: number } } };
    const code = answer.error?.code ?? null;
    return { label: code === null ? `${response.status}` : `${response.status} ${String(code)}`, ms: performance.now() - started, evaluated: answer.narrowgauge?.tokens?.evaluated ?? null };
  } catch (error) {
    return { label: (error as Error).name === "TimeoutError" ? "timeout" : "failed", ms: performance.now() - started, evaluated: null };
  }
}

/** Polls GET /health every POLL_MS until stopped; resolves with the slowest answer's ms (a failed poll counts as its whole wait). */
function pollHealth(url: string): { stop(): Promise<{ maxMs: number; polls: number; failed: number }> } {
  let stopping = false;
  let maxMs = 0;
  let polls = 0;
  let failed = 0;
  const loop = (async () => {
    while (!stopping) {
      const started = performance.now();
      const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) }).then((response) => response.text().then(() => response.ok), () => false);
      const ms = performance.now() - started;
      [maxMs, polls, failed] = [Math.max(maxMs, ms), polls + 1, failed + (ok ? 0 : 1)];
      await new Promise((wait) => setTimeout(wait, Math.max(0, POLL_MS - ms)));
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      return { maxMs, polls, failed };
    },
  };
}

/** A file of /proc, or "" off Linux or once the process is gone. */
const proc = (path: string) => {
  try {
    return readFileSync(`/proc/${path}`, "utf8");
  } catch {
    return "";
  }
};
/** A process's resident memory in MiB (VmRSS; VmHWM: the most it has held), or null. */
export const residentMiB = (pid: number, field: "VmRSS" | "VmHWM" = "VmRSS") => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(proc(`${pid}/status`))?.[1] ?? Number.NaN) / 1024) || null;
/** The server's own process under tsx (which runs the CLI in a child process of its own), or the pid itself. */
export const serverPid = (pid: number) => Number(proc(`${pid}/task/${pid}/children`).trim().split(/\s+/)[0]) || pid;

export interface HeavyRow {
  name: string;
  boundMs: number;
  /** Each answer the heavy request got, in order ("400 too_many_tools", "200", "503 bodies_busy", "reading" for a body left unfinished, "timeout", "failed"). */
  answers: string[];
  heavyLongestMs: number;
  health: { maxMs: number; polls: number; failed: number };
  /** The second client's steps, each started with the heavy request. */
  steps: Answer[];
  rssMiB: { before: number | null; after: number | null; peak: number | null };
}

export interface HeavyReport {
  mode: HeavyMode;
  /** The ordinary step alone, before each heavy request and after the last. */
  solo: Answer[];
  rows: HeavyRow[];
}

export const median = (values: readonly number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;
/** The solo step's median ms, over the steps that were answered 200. */
export const soloMedian = (report: HeavyReport) => median(report.solo.filter((step) => step.label === "200").map((step) => step.ms));

/**
 * Runs every heavy case against the server at `url`, one after another:
 * `steps` rounds each, a round the heavy request (or its flood) started
 * with the second client's step and ended after it, `/health` polled all
 * along; the solo step `steps` times before each case and after the last.
 */
export async function measureHeavyRequests(url: string, options: { steps?: number; mode?: HeavyMode; pid?: number; cases?: HeavyCase[]; log?: (line: string) => void } = {}): Promise<HeavyReport> {
  const rounds = options.steps ?? 3;
  const mode = options.mode ?? "once";
  const solo: HeavyReport["solo"] = [];
  const alone = async () => {
    for (let index = 0; index < rounds; index++) solo.push(await ordinaryStep(url));
  };
  const rss = (field: "VmRSS" | "VmHWM") => (options.pid ? residentMiB(options.pid, field) : null);
  // Warm-up: the first steps fill the model's caches and compile the demo tools; they are not the solo time.
  for (let index = 0; index < 3; index++) await ordinaryStep(url);
  const rows: HeavyRow[] = [];
  for (const heavy of options.cases ?? heavyCases()) {
    await alone();
    const before = rss("VmRSS");
    const health = pollHealth(url);
    const answers: string[] = [];
    const steps: HeavyRow["steps"] = [];
    let heavyLongestMs = 0;
    for (let index = 0; index < rounds; index++) {
      const load = await heavy.start(url, mode);
      steps.push(await ordinaryStep(url));
      const ended = await load.stop();
      answers.push(...ended.answers);
      heavyLongestMs = Math.max(heavyLongestMs, ended.longestMs);
    }
    const row: HeavyRow = { name: heavy.name, boundMs: heavy.boundMs, answers, heavyLongestMs, health: await health.stop(), steps, rssMiB: { before, after: rss("VmRSS"), peak: rss("VmHWM") } };
    rows.push(row);
    options.log?.(`${row.name}: ${tally(row.answers)}; step ${tally(row.steps.map((step) => step.label))}`);
  }
  await alone();
  return { mode, solo, rows };
}

/** Answers counted: "400 too_many_tools ×12, 200 ×1". */
export const tally = (answers: readonly string[]) => [...new Set(answers)].map((answer) => `${answer} ×${answers.filter((other) => other === answer).length}`).join(", ");

const evaluated = (answers: readonly Answer[]) => answers.map((answer) => answer.evaluated ?? "–").join(" ");

/** The report as a markdown table, the second client's step beside its solo time. */
export function heavyTable(report: HeavyReport): string {
  const [solo, soloMs] = [soloMedian(report), report.solo.map((step) => step.ms)];
  const lines = [
    `heavy requests sent ${report.mode === "once" ? "once per round, with the second client's step" : "back to back for the whole of each second-client step (flood)"}`,
    `solo ordinary step: median ${solo.toFixed(0)} ms (min ${Math.min(...soloMs).toFixed(0)}, max ${Math.max(...soloMs).toFixed(0)}); answers ${tally(report.solo.map((step) => step.label))}; prompt tokens evaluated ${tally(report.solo.map((step) => String(step.evaluated ?? "–")))}`,
    "",
    "| heavy request | its answers | its longest ms (bound) | /health max ms (polls) | second client's step ms (median; max) | step answers | ÷ solo | step's prompt tokens evaluated | server RSS MiB before → after (peak) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of report.rows) {
    const stepMs = row.steps.map((step) => step.ms);
    const rss = row.rssMiB.before === null ? "–" : `${row.rssMiB.before} → ${row.rssMiB.after} (${row.rssMiB.peak})`;
    lines.push(`| ${row.name} | ${tally(row.answers)} | ${row.heavyLongestMs.toFixed(0)} (${row.boundMs / 1000} s) | ${row.health.maxMs.toFixed(0)} (${row.health.polls}${row.health.failed ? `, ${row.health.failed} failed` : ""}) | ${median(stepMs).toFixed(0)}; ${Math.max(...stepMs).toFixed(0)} | ${tally(row.steps.map((step) => step.label))} | ${(median(stepMs) / solo).toFixed(2)} | ${evaluated(row.steps)} | ${rss} |`);
  }
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const flags = new Command("bench:serve-heavy")
    .option("--url <url>", "a running narrowgauge serve (default: start `narrowgauge serve --model demo`)")
    .option("--steps <n>", "rounds per heavy request (each one second-client step), and solo steps before each", (text) => Number(text), 3)
    .option("--flood", "send each heavy request back to back for the whole of each step, not once per round")
    .parse()
    .opts<{ url?: string; steps: number; flood?: boolean }>();
  const server = flags.url ? null : await startServeProcess("--model", "demo");
  try {
    const url = flags.url ?? server!.url;
    console.log(`narrowgauge serve at ${url}${server ? " (--model demo, started by the bench)" : ""}\n`);
    const report = await measureHeavyRequests(url, { steps: flags.steps, mode: flags.flood ? "flood" : "once", ...(server ? { pid: serverPid(server.child.pid!) } : {}), log: (line) => console.error(line) });
    console.log(heavyTable(report));
  } finally {
    await server?.stop();
  }
}
