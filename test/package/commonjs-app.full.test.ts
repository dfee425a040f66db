import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/**
 * A new user's app, made from an empty folder by the README's own install
 * block, as written: `mkdir app && cd app && npm init -y` (CommonJS) and the
 * packed tarball installed beside TypeBox and tsx. The README's examples and
 * `narrowgauge run --tools` must run there as written.
 * Regression: the package had no "require" export and its tools loader
 * blamed the library (`No "exports" main defined`).
 */
const run = promisify(execFile);
const sh = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  run(command, args, { cwd, env: { ...process.env, NO_COLOR: "1", npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false", ...env }, maxBuffer: 64 * 1024 * 1024 }).then(
    (output) => ({ code: 0, ...output }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );

/** A README example: the ```ts block after its marker. */
async function readmeExample(name: string): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const marker = readme.indexOf(`<!-- example: ${name} -->`);
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker < 0 || !match) throw new Error(`README.md has no example after <!-- example: ${name} -->`);
  return match[1]!;
}

/** The README's install: the ```sh block of its "Using it" section, line by line. */
async function readmeInstall(): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it"), readme.indexOf("\n## ", readme.indexOf("## Using it") + 1));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error("README.md's \"Using it\" has no ```sh block");
  return match[1]!.split("\n").filter((line) => line.trim());
}

const TOOLS_TS = `import { Type } from "@sinclair/typebox";
import { defineTool } from "narrowgauge";

export const double = defineTool({
  name: "Double",
  description: "Double a number.",
  params: Type.Object({ value: Type.Number() }),
  run: ({ value }) => ({ value: value * 2 }),
});
`;

describe("an app made with npm init -y (CommonJS) that installed the packed tarball", () => {
  let app = "";
  let scratch = "";

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "narrowgauge-app-"));
    const [clone, ...install] = await readmeInstall();
    // The README's first line clones and packs into ./narrowgauge; here that clone is this tree, packed into a folder of that name.
    expect(clone).toMatch(/^git clone \S.* narrowgauge && \(cd narrowgauge && npm ci && npm pack\)$/);
    await mkdir(join(scratch, "narrowgauge"));
    const packed = await sh("npm", ["pack", "--silent", "--pack-destination", join(scratch, "narrowgauge")], ROOT);
    expect(packed.code, `${packed.stdout}\n${packed.stderr}`).toBe(0);
    const tarball = packed.stdout.trim().split("\n").at(-1)!;
    expect(install.join("\n"), "the README installs the tarball npm pack makes").toContain(`../narrowgauge/${tarball}`);
    // The rest as written, from the empty folder beside the clone (the npm cache serves what it holds).
    const installed = await sh("bash", ["-euc", install.join("\n")], scratch, { npm_config_prefer_offline: "true" });
    expect(installed.code, installed.stderr).toBe(0);
    app = join(scratch, "app");
    const pkg = JSON.parse(await readFile(join(app, "package.json"), "utf8"));
    expect(pkg.type === undefined || pkg.type === "commonjs").toBe(true);
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["@sinclair/typebox", "narrowgauge", "tsx"]);
  }, 600_000);

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("runs the README's example as written", async () => {
    await writeFile(join(app, "agent.mts"), await readmeExample("agent.mts"));
    const { code, stdout, stderr } = await sh("npx", ["tsx", "agent.mts"], app);
    expect(code, stderr).toBe(0);
    // The task names Paris, and city is a subject: the first call can only be Paris's.
    expect(stdout).toContain('1 {"tool":"CityWeather","args":{"city":"Paris"}}');
    expect(stdout).toMatch(/^(answer: |max-turns|stalled|context-overflow|model-error)/m);
  }, 120_000);

  it("runs the README's next step as written: the demo model answers with narrowgauge/demos's tools, from their results", async () => {
    await writeFile(join(app, "weather.mts"), await readmeExample("weather.mts"));
    const { code, stdout, stderr } = await sh("npx", ["tsx", "weather.mts"], app);
    expect(code, stderr).toBe(0);
    // Status, then the answer: it names both cities with the temperatures CityWeather returned (Paris 18, New York 24).
    const line = stdout.trim().split("\n").at(-1)!;
    expect(line).toMatch(/^answered /);
    expect(line).toMatch(/Paris\D*18\b/);
    expect(line).toMatch(/New York\D*24\b/);
  }, 120_000);

  it("runs narrowgauge run --tools on a TypeScript tools module of the app (CommonJS)", async () => {
    await writeFile(join(app, "tools.ts"), TOOLS_TS);
    const { code, stdout, stderr } = await sh("npx", ["narrowgauge", "run", "--tools", "./tools.ts", "--model", "tiny:3", "--max-turns", "2", "Double 21.", "--json"], app);
    expect([0, 1], stderr).toContain(code);
    const result = JSON.parse(stdout);
    expect(result.turns[0].visible.tools).toEqual(["Double"]);
  }, 120_000);

  it("prints its version: npx narrowgauge --version", async () => {
    const { code, stdout, stderr } = await sh("npx", ["narrowgauge", "--version"], app);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version);
  }, 60_000);

  it("loads with require() from CommonJS code", async () => {
    const script = `const { defineTool, runAgent, loadModel } = require("narrowgauge"); console.log(typeof defineTool, typeof runAgent, typeof loadModel);`;
    const { code, stdout, stderr } = await sh(process.execPath, ["-e", script], app);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe("function function function");
  }, 60_000);

  it("installs nothing for the browser entry in a Node app (wllama is an optional peer), and ships narrowgauge/browser as one module that imports wllama alone", async () => {
    expect(existsSync(join(app, "node_modules", "@wllama"))).toBe(false);
    const bundle = await readFile(join(app, "node_modules", "narrowgauge", "dist", "browser", "narrowgauge.js"), "utf8");
    const specifiers = new Set([...bundle.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]));
    expect([...specifiers]).toEqual(["@wllama/wllama/esm/index.js"]);
    const pkg = JSON.parse(await readFile(join(app, "node_modules", "narrowgauge", "package.json"), "utf8"));
    expect(pkg.exports["./browser"]).toEqual({ types: "./dist/browser/index.d.ts", default: "./dist/browser/narrowgauge.js" });
    expect(pkg.peerDependenciesMeta["@wllama/wllama"].optional).toBe(true);
  });

  it("installs no AI SDK package, and narrowgauge/ai-sdk runs generateText once the app installs ai", async () => {
    expect(existsSync(join(app, "node_modules", "ai"))).toBe(false);
    expect(existsSync(join(app, "node_modules", "@ai-sdk"))).toBe(false);
    const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8"));
    const installed = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `ai@${lock.packages["node_modules/ai"].version}`], app);
    expect(installed.code, installed.stderr).toBe(0);
    const script = `import { generateText } from "ai";
import { loadModel } from "narrowgauge";
import { createNarrowgauge } from "narrowgauge/ai-sdk";
const model = await loadModel("demo");
const { text, finishReason } = await generateText({ model: createNarrowgauge({ model }), prompt: "Hello" });
console.log(typeof text, finishReason);
await model.dispose();
`;
    await writeFile(join(app, "provider.mjs"), script);
    const { code, stdout, stderr } = await sh(process.execPath, ["provider.mjs"], app);
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toMatch(/^string (stop|length|other)$/);
  }, 300_000);
});
