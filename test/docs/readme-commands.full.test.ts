import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_MODEL_FILE } from "../../runtime/backends/llama/demo-model-file.js";
import { forProcesses, PROCESS_MS, ROOT } from "../helpers/cli.js";

/**
 * Every command the README gives, run as written in this clone (CI's is a
 * fresh one) with its placeholders filled in: a GGUF (the demo model), a
 * tools module (the CLI fixture), a notes folder. A command that cannot run
 * here says why and where it is tested instead. A command the README gains
 * that this table does not know fails the first test.
 */
type Outcome = { code: number; stdout: string; stderr: string };
interface Plan {
  /** argv, with {model}, {tools}, {notes}, {scratch} filled in; run in the clone's root. */
  run?: string[];
  check?: (outcome: Outcome) => void | Promise<void>;
  skip?: string;
}

const answered = (outcome: Outcome) => expect(outcome.code, outcome.stderr).toBe(0);
const ranToAnEnd = (outcome: Outcome) => {
  expect([0, 1], outcome.stderr).toContain(outcome.code);
  expect(outcome.stdout).toMatch(/^(ANSWERED|FAILED) \(/m);
};

const PLANS: Record<string, Plan> = {
  "npm install && npm run demo": { run: ["npm", "run", "demo"], check: (outcome) => (answered(outcome), expect(outcome.stdout.trim().split("\n").at(-1)).toBe("Answer: Paris: 18°C, light rain. New York: 24°C, sunny.")) },
  "npm test": { skip: "it is the test runner this test runs in (the unit tier); CI runs it as the README says" },
  "npm run test:all": { skip: "it is the test runner this test runs in (both tiers); CI runs it" },
  "npm run demo": { run: ["npm", "run", "demo"], check: answered },
  "npm run demo -- --profile none": { run: ["npm", "run", "demo", "--", "--profile", "none"], check: ranToAnEnd },
  "npm run demo -- --model tiny": { run: ["npm", "run", "demo", "--", "--model", "tiny"], check: ranToAnEnd },
  "npm run -s demo -- --json": { run: ["npm", "run", "-s", "demo", "--", "--json"], check: (outcome) => (answered(outcome), expect(JSON.parse(outcome.stdout)).toMatchObject({ status: "answered" })) },
  "npm run train:eval -- --model models/narrowgauge-weather.q8_0.gguf": {
    run: ["npm", "run", "train:eval", "--", "--model", "models/narrowgauge-weather.q8_0.gguf"],
    check: (outcome) => (answered(outcome), expect(outcome.stdout).toMatch(/sub1b/)),
  },
  "npm run browser:demo": { skip: "serves a page until stopped; the page it serves runs in Chromium in test/browser/page.full.test.ts" },
  "npm run cli -- …": { skip: "a form, not a command: every command below runs through it" },
  "npx narrowgauge …": { skip: "a form, not a command: `npx narrowgauge run` runs in an app in test/package/commonjs-app.full.test.ts" },
  "npx tsx agent.mts": { skip: "runs the README's example in an app that installed the packed tarball: test/package/commonjs-app.full.test.ts" },
  "npx tsx weather.mts": { skip: "runs the README's next step (the demo model, narrowgauge/demos's tools) in that app: test/package/commonjs-app.full.test.ts checks it answers" },
  "npm init": { skip: "an app's first step: test/package/commonjs-app.full.test.ts makes its app so" },
  "npm pkg set type=module": { skip: "changes an app's package.json; the example's ES-module form is type-checked in test/docs/readme-example.test.ts" },
  "npm pack": { skip: "packs the tarball that test/package/commonjs-app.full.test.ts installs" },
  "git clone <narrowgauge's repository> narrowgauge && (cd narrowgauge && npm ci && npm pack)": { skip: "needs the repository's address; CI clones it and runs npm ci, and test/package/commonjs-app.full.test.ts packs this tree into a folder named narrowgauge" },
  "mkdir app && cd app && npm init -y && npm install ../narrowgauge/narrowgauge-0.1.0.tgz @sinclair/typebox tsx": {
    skip: "makes an app beside the clone: test/package/commonjs-app.full.test.ts runs it as written, from an empty folder",
  },
  "narrowgauge demo": { run: ["npm", "run", "-s", "cli", "--", "demo"], check: answered },
  "narrowgauge probe": { skip: "the whole probe suite takes many minutes; its scenarios, scores and pages are tested in test/probe/" },
  'narrowgauge run --model <file.gguf> --tools ./tools.ts "task"': { run: ["npm", "run", "-s", "cli", "--", "run", "--model", "{model}", "--tools", "{tools}", "Double 21."], check: ranToAnEnd },
  "narrowgauge serve": { skip: "serves until stopped; test/serve/load-balancer.full.test.ts starts two `narrowgauge serve` processes and answers 20 conversations through them" },
  "narrowgauge serve --model <file.gguf>": { skip: "serves until stopped; test/serve/load-balancer.full.test.ts starts it as written (--model demo) behind nginx" },
  "narrowgauge server build": { skip: "compiles llama.cpp for minutes; the served tests build it once (test/helpers/llama-server.ts)" },
  'narrowgauge spy "task"': { run: ["npm", "run", "-s", "cli", "--", "spy", "Weather in Paris?"], check: (outcome) => (answered(outcome), expect(outcome.stdout).toContain("Weather in Paris?")) },
  "narrowgauge trace run.json -o page.html": {
    run: ["npm", "run", "-s", "cli", "--", "trace", "{scratch}/run.json", "-o", "{scratch}/page.html"],
    check: async (outcome) => (answered(outcome), expect((await stat(join(scratchFolder, "page.html"))).size).toBeGreaterThan(1000)),
  },
  'narrowgauge run --model <file.gguf> --mcp "npx @modelcontextprotocol/server-filesystem /tmp/notes" "What do the notes say?"': {
    run: ["npm", "run", "-s", "cli", "--", "run", "--model", "{model}", "--mcp", "npx @modelcontextprotocol/server-filesystem {notes}", "What do the notes say?"],
    check: (outcome) => (ranToAnEnd(outcome), expect(outcome.stdout).not.toContain("context-overflow")),
  },
};

/** The commands the README gives: its ```sh lines, and inline code that starts with a command name (line breaks inside read as spaces). */
async function readmeCommands(): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split("\n").map((line) => line.trim()).filter(Boolean));
  const inline = [...readme.matchAll(/`((?:npm|npx|narrowgauge|git|node) [^`]*)`/g)].map((match) => match[1]!.replace(/\s+/g, " ").trim());
  return [...new Set([...blocks, ...inline])];
}

let scratchFolder = "";

describe("the README's commands, as written", () => {
  beforeAll(async () => {
    scratchFolder = await mkdtemp(join(tmpdir(), "narrowgauge-readme-"));
  });

  it("knows every command the README gives (runs it, or says why not and where it is tested)", async () => {
    const unknown = (await readmeCommands()).filter((command) => !Object.hasOwn(PLANS, command));
    expect(unknown).toEqual([]);
    for (const plan of Object.values(PLANS)) expect(Boolean(plan.run) !== Boolean(plan.skip)).toBe(true);
  });

  const runnable = Object.entries(PLANS).filter(([, plan]) => plan.run);
  it.each(runnable)("%s", async (_command, plan) => {
    const notes = join(scratchFolder, "notes");
    await mkdir(notes, { recursive: true });
    await writeFile(join(notes, "todo.txt"), "buy milk\n");
    if (plan.run!.includes("{scratch}/run.json")) {
      const saved = await sh(["npm", "run", "-s", "demo", "--", "--json"]);
      await writeFile(join(scratchFolder, "run.json"), saved.stdout);
    }
    const fill = (arg: string) =>
      arg.replaceAll("{model}", join(ROOT, "models", DEMO_MODEL_FILE)).replaceAll("{tools}", join(ROOT, "test", "fixtures", "cli-tools.ts")).replaceAll("{notes}", notes).replaceAll("{scratch}", scratchFolder);
    await plan.check!(await sh(plan.run!.map(fill)));
  }, forProcesses(2));
});

async function sh([command, ...args]: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command!, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 32 * 1024 * 1024, timeout: PROCESS_MS, killSignal: "SIGKILL" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | null; signal?: string | null; stdout: string; stderr: string };
    return { code: typeof failed.code === "number" ? failed.code : failed.signal ? 128 : 1, stdout: failed.stdout, stderr: failed.stderr };
  }
}
