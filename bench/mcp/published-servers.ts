/**
 * npm run bench:mcp-servers [-- --servers playwright,github]
 *
 * Issue 52's contract on 27 published MCP servers (bench/mcp/server-list.ts,
 * pinned): installs each into narrowgauge's cache dir (the npm registry is
 * the only network this needs, and only here), starts it with no network
 * (`unshare -rn`) and no real credentials, and reports what narrowgauge makes
 * of its tools: how many it lists, which narrowgauge refuses and why, which
 * need approval, whether the whole set's step grammar parses in llama.cpp,
 * and how a run of the built-in model (default context, `approve` answering
 * no, so nothing but a read-only tool runs) ends. Prints the table and the
 * details, writes it as JSON under bench/out/, and prints that file's path last.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadModel } from "../../index.js";
import { checkServer, type ServerReport } from "./check-server.js";
import { installFailure, installServer, serversDir } from "./install-servers.js";
import { PUBLISHED_SERVERS } from "./server-list.js";
import { serverRows } from "./server-table.js";

const { values: flags } = parseArgs({ options: { servers: { type: "string" } } });
const wanted = flags.servers?.split(",");
const servers = PUBLISHED_SERVERS.filter((server) => !wanted || wanted.includes(server.name));
const step = (line: string) => process.stderr.write(`${line}\n`);

try {
  execFileSync("unshare", ["-rn", "true"], { stdio: "pipe" });
} catch (error) {
  throw new Error(`unshare -rn (a network namespace with no network) does not work here, so the servers cannot be started offline: ${(error as Error).message}`);
}

step(`installing ${servers.length} servers under ${serversDir()}…`);
const installs: Record<string, { ms: number; error?: string }> = {};
for (const server of servers) {
  installs[server.name] = await installServer(server);
  const { ms, error } = installs[server.name]!;
  step(`  ${server.package}@${server.version}: ${error ? `FAILED: ${installFailure(error)}` : ms === 0 ? "installed already" : `${(ms / 1000).toFixed(1)} s`}`);
}

const model = await loadModel("tiny");
const reports: ServerReport[] = [];
try {
  for (const server of servers.filter((server) => !installs[server.name]!.error)) {
    step(`checking ${server.name}…`);
    reports.push(await checkServer(server, { model }));
  }
} finally {
  await model.dispose();
}

console.log(serverRows(reports).join("\n"));
const listed = reports.filter((report) => report.error === null);
const sum = (count: (report: ServerReport) => number) => reports.reduce((total, report) => total + count(report), 0);
console.log(
  `\n${listed.length} of ${servers.length} servers listed ${sum((report) => report.tools)} tools: ${sum((report) => report.refused.length)} refused, ${sum((report) => report.needsApproval.length)} need approval; ` +
    `${listed.filter((report) => report.grammar?.parses).length} whole-set grammars parse; ${listed.filter((report) => report.run && report.run.status !== "threw").length} runs ended typed; ` +
    `tools switched off with approve: ${sum((report) => report.run?.switchedOff.length ?? 0)}.`,
);
for (const report of reports) {
  if (report.error) console.log(`\n${report.server}: no tool list: ${report.error}`);
  for (const refused of report.refused) console.log(`${report.server}: refused ${refused.name}: ${refused.reason}`);
  if (report.grammar?.error) console.log(`${report.server}: grammar refused: ${report.grammar.error}`);
  if (report.run?.error) console.log(`${report.server}: run: ${report.run.error}`);
}
for (const [name, install] of Object.entries(installs)) if (install.error) console.log(`\n${name}: install failed: ${installFailure(install.error)}`);

const directory = fileURLToPath(new URL("../out/", import.meta.url));
await mkdir(directory, { recursive: true });
const file = `${directory}mcp-servers-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
await writeFile(file, JSON.stringify({ node: process.version, servers: servers.map((server) => ({ ...server, install: installs[server.name] })), reports }, null, 2));
console.log(file);
