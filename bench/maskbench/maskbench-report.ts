import type { FileJudgement } from "./judge-pool.js";
import type { SchemaJudgement } from "./judge-schema.js";
import { splitOf } from "./maskbench-data.js";
import { PUBLISHED_ENGINES, PUBLISHED_ROWS, PUBLISHED_VERSIONS } from "./published-results.js";

/** The bench's results as markdown tables, derived from the per-schema judgements alone. */

export interface Tally {
  schemas: number;
  passing: number;
  compileErrors: number;
  untypedErrors: number;
  postCheckThrew: number;
  timeouts: number;
  /** Schemas with at least one valid instance refused (may overlap invalidAccepted). */
  validRefused: number;
  /** Schemas with at least one invalid instance accepted. */
  invalidAccepted: number;
}

export function tally(judgements: readonly SchemaJudgement[]): Tally {
  const count = (test: (judgement: SchemaJudgement) => boolean) => judgements.filter(test).length;
  return {
    schemas: judgements.length,
    passing: count((judgement) => judgement.outcome === "passing"),
    compileErrors: count((judgement) => judgement.outcome === "compile-error"),
    untypedErrors: count((judgement) => judgement.outcome === "untyped-error"),
    postCheckThrew: count((judgement) => judgement.outcome === "post-check-threw"),
    timeouts: count((judgement) => judgement.outcome === "timeout"),
    validRefused: count((judgement) => judgement.outcome === "failing" && judgement.validRefused > 0),
    invalidAccepted: count((judgement) => judgement.outcome === "failing" && judgement.invalidAccepted > 0),
  };
}

const number = (value: number) => value.toLocaleString("en-US");
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;

function table(header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string {
  const cells = (row: readonly (string | number)[]) => `| ${row.map((cell) => (typeof cell === "number" ? number(cell) : cell)).join(" | ")} |`;
  return [cells(header), `|${header.map((_, index) => (index === 0 ? " :--- " : " ---: ")).join("|")}|`, ...rows.map(cells)].join("\n");
}

const TALLY_HEADER = ["schemas", "passing", "compile error", "untyped error", "post-check threw", "timeout", "valid instance refused", "invalid instance accepted"];
const tallyRow = (tallied: Tally) => [tallied.schemas, `${number(tallied.passing)} (${percent(tallied.passing, tallied.schemas)})`, tallied.compileErrors, tallied.untypedErrors, tallied.postCheckThrew, tallied.timeouts, tallied.validRefused, tallied.invalidAccepted];

export function overallTable(results: readonly FileJudgement[]): string {
  return table(["", ...TALLY_HEADER], [["all", ...tallyRow(tally(results.map((result) => result.judgement)))]]);
}

export function splitTable(results: readonly FileJudgement[]): string {
  const splits = [...new Set(results.map((result) => splitOf(result.name)))].sort();
  return table(["split", ...TALLY_HEADER], splits.map((split) => [split, ...tallyRow(tally(results.filter((result) => splitOf(result.name) === split).map((result) => result.judgement)))]));
}

/** Instances of schemas that compiled and were judged to the end: what the grammar writes, what the post-check accepts. */
export function instanceTable(results: readonly FileJudgement[]): string {
  const instances = results.filter((result) => result.judgement.outcome === "passing" || result.judgement.outcome === "failing").flatMap((result) => result.judgement.instances);
  const row = (valid: boolean) => {
    const mine = instances.filter((instance) => instance.valid === valid);
    const wrong = mine.filter((instance) => (valid ? !(instance.writable && instance.postCheckAccepts) : instance.writable && instance.postCheckAccepts)).length;
    return [valid ? "valid" : "invalid", mine.length, mine.filter((instance) => instance.writable).length, mine.filter((instance) => instance.postCheckAccepts).length, `${number(wrong)} (${percent(wrong, mine.length)})`];
  };
  return table(["instances", "judged", "grammar writes", "post-check accepts", "wrong (valid refused / invalid accepted)"], [row(true), row(false)]);
}

export function keywordTable(results: readonly FileJudgement[], top = 25): string {
  const counts = new Map<string, number>();
  for (const { judgement } of results) if (judgement.outcome === "compile-error") counts.set(judgement.keyword ?? "?", (counts.get(judgement.keyword ?? "?") ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return table(["first refused keyword", "schemas"], sorted.slice(0, top));
}

/** MaskBench's percentile: the value at index floor(n · p / 100) of the sorted list (maskbench_results.py, get_p). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

export function timingRow(step: string, values: readonly number[]): (string | number)[] {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value: number) => (Number.isNaN(value) ? "–" : value.toFixed(value < 10 ? 2 : 0));
  return [step, sorted.length, ...[50, 75, 99, 100].map((p) => ms(percentile(sorted, p)))];
}

export const TIMING_HEADER = ["step (ms)", "schemas", "p50", "p75", "p99", "max"];

export function timingTable(results: readonly FileJudgement[], timeoutMs: number, extraRows: ReadonlyArray<(string | number)[]> = []): string {
  const values = (key: "compileMs" | "postCheckCompileMs" | "grammarReadMs") => results.flatMap((result) => (result.judgement[key] === undefined ? [] : [result.judgement[key]!]));
  // As MaskBench's TTFM: every compile that did not raise, a timeout counted at the time limit.
  const timeouts = results.filter((result) => result.judgement.outcome === "timeout").map(() => timeoutMs);
  return table(TIMING_HEADER, [
    timingRow("compileGbnf (engine.compile)", values("compileMs")),
    timingRow("compileGbnf, timeouts counted at the limit (MaskBench's TTFM rule)", [...values("compileMs"), ...timeouts]),
    timingRow("post-check compile (first engine.postCheck)", values("postCheckCompileMs")),
    timingRow("narrowgauge's matcher reads the grammar", values("grammarReadMs")),
    ...extraRows,
  ]);
}

/**
 * narrowgauge's results in MaskBench's categories (runner.py): any raise in
 * compilation is a compile error, and a failing schema counts once, by its
 * last wrong instance (runner.py keeps the last `validation_error`).
 */
export function maskbenchCategoryTable(results: readonly FileJudgement[]): string {
  const judgements = results.map((result) => result.judgement);
  const lastWrong = (judgement: SchemaJudgement) => judgement.instances.findLast((instance) => (instance.valid ? !(instance.writable && instance.postCheckAccepts) : instance.writable && instance.postCheckAccepts));
  const failing = judgements.filter((judgement) => judgement.outcome === "failing");
  const compileStage = (judgement: SchemaJudgement) => judgement.outcome === "compile-error" || judgement.outcome === "post-check-threw" || (judgement.outcome === "untyped-error" && judgement.error?.stage === "compile");
  return table(
    ["metric (MaskBench's categories)", "narrowgauge (this run)"],
    [
      ["schemas", judgements.length],
      ["passing", judgements.filter((judgement) => judgement.outcome === "passing").length],
      ["compile error (incl. untyped compile errors and post-check threw)", judgements.filter(compileStage).length],
      ["crash (untyped error after compiling)", judgements.filter((judgement) => judgement.outcome === "untyped-error" && !compileStage(judgement)).length],
      ["timeout", judgements.filter((judgement) => judgement.outcome === "timeout").length],
      ["validation error", failing.filter((judgement) => lastWrong(judgement)?.valid === true).length],
      ["invalidation error", failing.filter((judgement) => lastWrong(judgement)?.valid === false).length],
    ],
  );
}

export function publishedTable(): string {
  return `${table(["metric", ...PUBLISHED_ENGINES], PUBLISHED_ROWS.map(([metric, values]) => [metric, ...values]))}\n\nVersions: ${PUBLISHED_VERSIONS}.`;
}

/** Untyped errors grouped by stage, class and message: each is a bug. */
export function untypedErrorList(results: readonly FileJudgement[]): string {
  const groups = new Map<string, string[]>();
  for (const { name, judgement } of results) {
    if (judgement.outcome !== "untyped-error") continue;
    const key = `${judgement.error?.stage} ${judgement.error?.name}: ${(judgement.error?.message ?? "").replace(/\s+/g, " ").slice(0, 160)}`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  if (groups.size === 0) return "none";
  return table(["stage, class: message", "schemas", "example"], [...groups].sort((a, b) => b[1].length - a[1].length).map(([key, names]) => [key.replaceAll("|", "\\|"), names.length, names[0]!]));
}

export function outcomeList(results: readonly FileJudgement[], outcome: SchemaJudgement["outcome"]): string {
  const names = results.filter((result) => result.judgement.outcome === outcome).map((result) => result.name);
  return names.length === 0 ? "none" : names.join(", ");
}
