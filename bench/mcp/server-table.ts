import type { ServerReport } from "./check-server.js";

/** How a run ended, in one cell: status and reason, the failure's code, and what its calls came to. */
function runCell(report: ServerReport): string {
  const run = report.run;
  if (!run) return "—";
  if (run.status === "threw") return `threw ${run.error?.split(":")[0] ?? ""}`;
  const code = run.error ? ` (${run.error.split(":")[0]})` : "";
  const ran = run.calls.ran.length ? `, ${run.calls.ran.length} ran` : "";
  return `${run.status} ${run.reason}${code}; ${run.shown} of ${report.tools - report.refused.length} shown, ${run.turns} turns, ${run.calls.declined} declined${ran}`;
}

/** The bench's table as Markdown rows: server, version, tools, refused, needs approval, grammar, run, ms. */
export function serverRows(reports: readonly ServerReport[]): string[] {
  const rows = ["| server | version | tools | refused | needs approval | grammar parses | run: status reason | ms |", "| --- | --- | --- | --- | --- | --- | --- | --- |"];
  for (const report of reports) {
    if (report.error) {
      rows.push(`| ${report.server} | ${report.version} | — | — | — | — | no tool list: ${report.error.split(";")[0]!.slice(0, 120).replaceAll("|", "\\|")} | ${report.ms.toFixed(0)} |`);
      continue;
    }
    const grammar = report.grammar ? `${report.grammar.parses ? "yes" : "NO"} (${(report.grammar.chars / 1000).toFixed(0)}k chars)` : "—";
    rows.push(`| ${report.server} | ${report.version} | ${report.tools} | ${report.refused.length} | ${report.needsApproval.length} | ${grammar} | ${runCell(report)} | ${report.ms.toFixed(0)} |`);
  }
  return rows;
}
