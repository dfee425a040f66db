import { ARCHITECTURES, type Architecture, type ArchitectureTotals, type ProbeReport } from "./report.js";
import { html, page, type SafeHtml } from "../trace/html.js";

/**
 * What each architecture letter stands for, one line each, so a page read on
 * its own explains its columns (docs/probe.md says it at length).
 */
const LEGEND: Record<Architecture, string> = {
  A: "history rebuilt as a plain-text digest each turn, two-phase steps (pick a tool, then fill it in), the full guard stack",
  B: "forced union (every step sampled under one grammar of all the calls), native chat history, no thought, no guards",
  C: "forced union, native chat history, a thought before each step, the guards chosen by model size",
  P: "the peer baseline: node-llama-cpp's own function calling (free text; a reply with no call is the answer), the same tools",
};

/**
 * A measure and the scale its bars are drawn against. A share (solved: 3 of
 * 23 runs) is drawn against its own denominator, so 3/23 is 13 % of a bar
 * whatever the other columns scored; a count has no natural maximum, so it
 * is drawn against a round number at or above the largest, stated beside
 * the chart: a full bar never looks like "all of them".
 */
type Measure = { title: string; value: (total: ArchitectureTotals) => number } & ({ of: (total: ArchitectureTotals) => number } | { unit: string });

const MEASURES: Measure[] = [
  { title: "solved", value: (total) => total.solved, of: (total) => total.runs },
  { title: "invented (answers with an ungrounded number)", value: (total) => total.invented, of: (total) => total.runs },
  { title: "turns", value: (total) => total.turns, unit: "turns" },
  { title: "tokens generated", value: (total) => total.tokens.generated, unit: "tokens" },
];

/** The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × a power of ten that is at least `value` (and at least 1). */
function roundScale(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((candidate) => candidate * power >= value)!;
  return Math.round(step * power);
}

const LABEL = 70;
const TRACK = 300;
const WIDTH = LABEL + TRACK + 90;

/** A horizontal bar chart of one measure by architecture column, as inline SVG: each bar over a track that is the whole scale. */
function chart(measure: Measure, report: ProbeReport): SafeHtml {
  const totals = Object.entries(report.summary);
  const scale = "unit" in measure ? roundScale(Math.max(0, ...totals.map(([, total]) => measure.value(total)))) : null;
  const bars = totals.map(([column, total], index) => {
    const value = measure.value(total);
    const of = "of" in measure ? measure.of(total) : scale!;
    const length = of > 0 ? Math.round((Math.min(value, of) / of) * TRACK) : 0;
    const y = 8 + index * 26;
    const label = "of" in measure ? `${value}/${of}` : String(value);
    return html`<text class="axis" x="0" y="${y + 14}">${column}</text><rect class="track" x="${LABEL}" y="${y}" width="${TRACK}" height="18"></rect><rect class="bar" x="${LABEL}" y="${y}" width="${length}" height="18" data-arch="${column}" data-value="${value}" data-of="${of}"></rect><text class="bar-label" x="${LABEL + TRACK + 6}" y="${y + 14}">${label}</text>`;
  });
  const caption = "of" in measure ? "each bar: a share of that column's runs (a full bar is all of them)" : `scale: 0 to ${scale!.toLocaleString("en")} ${measure.unit} (a round number at or above the largest here)`;
  return html`<figure class="card" data-measure="${measure.title}"><h3>${measure.title}</h3><p class="muted scale" data-scale="${scale ?? "share"}">${caption}</p><svg width="${WIDTH}" height="${16 + totals.length * 26}" role="img" aria-label="${measure.title} by architecture">${bars}</svg></figure>`;
}

/** One line per architecture letter the report's columns use, and what a column with a codec after its letter is. */
function legend(report: ProbeReport): SafeHtml {
  const columns = Object.keys(report.summary);
  const letters = ARCHITECTURES.filter((arch) => columns.some((column) => column.split(" ")[0] === arch));
  const codecs = columns.some((column) => column.includes(" "));
  return html`<section class="card" id="legend"><h3>What the letters mean</h3><dl>${letters.map((arch) => html`<dt data-legend="${arch}">${arch}</dt><dd>${LEGEND[arch]}</dd>`)}</dl>${codecs ? html`<p class="muted">A column such as “C json” is that architecture with its steps written in that codec.</p>` : null}<p class="muted">Every architecture runs the same scenarios on the same model, scored by code. The scenarios, the scores and each architecture in full: docs/probe.md in narrowgauge's repository.</p></section>`;
}

/** The probe's report as one self-contained page: the comparison table, a legend of the architectures, and a chart per measure. */
export function renderProbeHtml(report: ProbeReport): string {
  const { model } = report;
  const head = ["arch", "solved", "answered", "honest failure", "invented", "misattributed", "ungrounded names", "turns", "tool calls", "tokens generated", "s"];
  const rows = Object.entries(report.summary).map(
    ([arch, total]) =>
      html`<tr data-arch="${arch}">${[arch, `${total.solved}/${total.runs}`, total.answered, total.honestFailures, total.invented, total.misattributed, total.ungroundedNames, total.turns, total.toolCalls, total.tokens.generated, (total.ms / 1000).toFixed(1)].map((cell) => html`<td>${cell}</td>`)}</tr>`,
  );
  const parameters = model.parameters === null ? "?" : (model.parameters / 1e6).toFixed(2) + "M";
  const body = html`<h1>Probe: ${model.name}</h1>
<p class="meta">${model.wrapper} format · ${parameters} parameters · ${model.quantisation} · ${report.runs.length} runs in ${(report.ms / 1000).toFixed(1)} s</p>
<section class="card"><table><tr>${head.map((cell) => html`<th>${cell}</th>`)}</tr>${rows}</table></section>
${legend(report)}
${MEASURES.map((measure) => chart(measure, report))}`;
  return page(`narrowgauge probe: ${model.name}`, body);
}
