import { Type, type Static } from "@sinclair/typebox";
import type { ProbeScore } from "./score.js";

export const ARCHITECTURES = ["A", "B", "C", "P"] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

export const ARCHITECTURE_NAMES: Record<Architecture, string> = {
  A: "A: digest history + two-phase + full guards",
  B: "B: forced union, native history, no thought, no guards",
  C: "C: forced union, native history, thought, guards by size",
  P: "P: node-llama-cpp function calling (free-text loop)",
};

const Tokens = Type.Object({ generated: Type.Integer(), evaluated: Type.Integer() });

/** One scenario under one architecture. `result` is the full run result (turns, and spy text with --spy). */
export const ProbeRunSchema = Type.Object({
  scenario: Type.String(),
  arch: Type.Union(ARCHITECTURES.map((arch) => Type.Literal(arch))),
  /** How the run wrote its steps (runAgent's codec; "node-llama-cpp" for P). */
  codec: Type.String(),
  solved: Type.Boolean(),
  endedBy: Type.Union([Type.Literal("answered"), Type.Literal("honest-failure"), Type.Literal("invented"), Type.Literal("error")]),
  turns: Type.Integer(),
  toolCalls: Type.Integer(),
  malformed: Type.Integer(),
  inventedToolNames: Type.Array(Type.String()),
  rejected: Type.Integer(),
  ungroundedInFinal: Type.Array(Type.Number()),
  ungroundedNames: Type.Array(Type.String()),
  misattributed: Type.Integer(),
  repeats: Type.Integer(),
  tokens: Tokens,
  ms: Type.Number(),
  result: Type.Object({ status: Type.String(), reason: Type.String(), answer: Type.Union([Type.String(), Type.Null()]), turns: Type.Array(Type.Unknown()) }),
});
export type ProbeRun = Static<typeof ProbeRunSchema>;

export const ArchitectureTotalsSchema = Type.Object({
  runs: Type.Integer(),
  solved: Type.Integer(),
  answered: Type.Integer(),
  honestFailures: Type.Integer(),
  invented: Type.Integer(),
  errors: Type.Integer(),
  turns: Type.Integer(),
  toolCalls: Type.Integer(),
  malformed: Type.Integer(),
  inventedToolNames: Type.Integer(),
  rejected: Type.Integer(),
  ungroundedInFinal: Type.Integer(),
  ungroundedNames: Type.Integer(),
  misattributed: Type.Integer(),
  repeats: Type.Integer(),
  tokens: Tokens,
  ms: Type.Number(),
});
export type ArchitectureTotals = Static<typeof ArchitectureTotalsSchema>;

export const ProbeReportSchema = Type.Object({
  model: Type.Object({
    name: Type.String(),
    file: Type.String(),
    wrapper: Type.String(),
    /** Null when the model is served (the server's threads are its own). */
    threads: Type.Union([Type.Integer(), Type.Null()]),
    server: Type.Optional(Type.Object({ urls: Type.Array(Type.String()), builds: Type.Array(Type.String()) })),
    sampling: Type.Object({ family: Type.String(), source: Type.String(), temperature: Type.Optional(Type.Number()), topP: Type.Optional(Type.Number()), topK: Type.Optional(Type.Number()), minP: Type.Optional(Type.Number()), seed: Type.Optional(Type.Number()) }),
    parameters: Type.Union([Type.Integer(), Type.Null()]),
    sizeBytes: Type.Integer(),
    quantisation: Type.String(),
    builtIn: Type.Boolean(),
  }),
  runs: Type.Array(ProbeRunSchema),
  summary: Type.Record(Type.String(), ArchitectureTotalsSchema),
  ms: Type.Number(),
});
export type ProbeReport = Static<typeof ProbeReportSchema>;
export type ProbeModel = ProbeReport["model"];

export function probeRun(scenario: string, arch: Architecture, codec: string, score: ProbeScore, result: ProbeRun["result"]): ProbeRun {
  return { scenario, arch, codec, ...score, result };
}

/**
 * The column a run is summed in: its architecture, and its codec where the
 * report compares codecs under that architecture ("C json", "C native").
 */
export function columnOf(run: ProbeRun, runs: readonly ProbeRun[]): string {
  const codecs = new Set(runs.filter((other) => other.arch === run.arch).map((other) => other.codec));
  return codecs.size > 1 ? `${run.arch} ${run.codec}` : run.arch;
}

export function totals(runs: readonly ProbeRun[]): ArchitectureTotals {
  const sum = (pick: (run: ProbeRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    runs: runs.length,
    solved: runs.filter((run) => run.solved).length,
    answered: runs.filter((run) => run.endedBy === "answered").length,
    honestFailures: runs.filter((run) => run.endedBy === "honest-failure").length,
    invented: runs.filter((run) => run.endedBy === "invented").length,
    errors: runs.filter((run) => run.endedBy === "error").length,
    turns: sum((run) => run.turns),
    toolCalls: sum((run) => run.toolCalls),
    malformed: sum((run) => run.malformed),
    inventedToolNames: sum((run) => run.inventedToolNames.length),
    rejected: sum((run) => run.rejected),
    ungroundedInFinal: sum((run) => run.ungroundedInFinal.length),
    ungroundedNames: sum((run) => run.ungroundedNames.length),
    misattributed: sum((run) => run.misattributed),
    repeats: sum((run) => run.repeats),
    tokens: { generated: sum((run) => run.tokens.generated), evaluated: sum((run) => run.tokens.evaluated) },
    ms: sum((run) => run.ms),
  };
}

export function summarise(runs: readonly ProbeRun[]): Record<string, ArchitectureTotals> {
  const columns = ARCHITECTURES.flatMap((arch) => [...new Set(runs.filter((run) => run.arch === arch).map((run) => columnOf(run, runs)))]);
  return Object.fromEntries(columns.map((column) => [column, totals(runs.filter((run) => columnOf(run, runs) === column))]));
}

const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function renderMarkdown(report: ProbeReport): string {
  const { model } = report;
  const sampling = Object.entries(model.sampling).filter(([key]) => !["family", "source"].includes(key)).map(([key, value]) => `${key} ${value}`).join(", ");
  const lines = [
    `# Probe report: ${model.name}`,
    "",
    `- file: \`${model.file}\`${model.builtIn ? " (built-in tiny model: random weights)" : ""}`,
    `- size: ${(model.sizeBytes / 1e6).toFixed(1)} MB, ${model.parameters === null ? "?" : (model.parameters / 1e6).toFixed(2) + "M"} parameters, ${model.quantisation}`,
    `- chat wrapper: ${model.wrapper} · ${model.server ? `served by llama-server ${model.server.builds.join(", ")} (${model.server.urls.join(", ")})` : `threads: ${model.threads}`}`,
    `- sampling: ${model.sampling.family} preset (${sampling}) — ${model.sampling.source}`,
    `- ${report.runs.length} runs in ${seconds(report.ms)} s`,
    "",
    "## Comparison",
    "",
    row(["arch", "solved", "answered", "honest failure", "invented", "error", "turns", "tool calls", "malformed", "invented tool names", "rejected", "ungrounded numbers in final", "ungrounded names in final", "misattributed", "repeats", "tokens generated", "tokens evaluated", "s"]),
    row(Array(18).fill("---")),
    ...Object.entries(report.summary).map(([arch, total]) =>
      row([arch, `${total.solved}/${total.runs}`, total.answered, total.honestFailures, total.invented, total.errors, total.turns, total.toolCalls, total.malformed, total.inventedToolNames, total.rejected, total.ungroundedInFinal, total.ungroundedNames, total.misattributed, total.repeats, total.tokens.generated, total.tokens.evaluated, seconds(total.ms)]),
    ),
  ];
  for (const column of Object.keys(report.summary)) {
    const [arch, codec] = column.split(" ") as [Architecture, string | undefined];
    lines.push("", `## ${ARCHITECTURE_NAMES[arch]}${codec ? `, steps written as ${codec}` : ""}`, "");
    lines.push(row(["scenario", "solved", "ended by", "turns", "tool calls", "malformed", "rejected", "ungrounded", "misattributed", "repeats", "tokens gen/eval", "s"]));
    lines.push(row(Array(12).fill("---")));
    for (const run of report.runs.filter((candidate) => columnOf(candidate, report.runs) === column)) {
      lines.push(row([run.scenario, run.solved ? "✓" : "✗", run.endedBy, run.turns, run.toolCalls, run.malformed, run.rejected, [...run.ungroundedInFinal, ...run.ungroundedNames].join(" ") || "—", run.misattributed, run.repeats, `${run.tokens.generated}/${run.tokens.evaluated}`, seconds(run.ms)]));
    }
  }
  return lines.join("\n") + "\n";
}
