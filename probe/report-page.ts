import type { ProbeReport } from "./report.js";
import { escapeHtml, page } from "../trace/html.js";

interface Measure {
  title: string;
  value: (total: ProbeReport["summary"][string]) => number;
}

const MEASURES: Measure[] = [
  { title: "solved", value: (total) => total.solved },
  { title: "invented (answers with an ungrounded number)", value: (total) => total.invented },
  { title: "turns", value: (total) => total.turns },
  { title: "tokens generated", value: (total) => total.tokens.generated },
];

/** A horizontal bar chart of one measure by architecture, as inline SVG. */
function chart(measure: Measure, report: ProbeReport): string {
  const rows = Object.entries(report.summary).map(([arch, total]) => ({ arch, value: measure.value(total) }));
  const max = Math.max(1, ...rows.map((row) => row.value));
  const width = 420;
  const bars = rows
    .map((row, index) => {
      const length = Math.round((row.value / max) * (width - 90));
      const y = 8 + index * 26;
      return `<text class="axis" x="0" y="${y + 14}">${escapeHtml(row.arch)}</text><rect class="bar" x="24" y="${y}" width="${Math.max(length, 1)}" height="18" data-arch="${escapeHtml(row.arch)}" data-value="${row.value}"></rect><text class="bar-label" x="${30 + length}" y="${y + 14}">${row.value}</text>`;
    })
    .join("");
  return `<figure class="card" data-measure="${escapeHtml(measure.title)}"><h3>${escapeHtml(measure.title)}</h3><svg width="${width}" height="${16 + rows.length * 26}" role="img" aria-label="${escapeHtml(measure.title)} by architecture">${bars}</svg></figure>`;
}

/** The probe's report as one self-contained page: the comparison table and a chart per measure. */
export function renderProbeHtml(report: ProbeReport): string {
  const { model } = report;
  const head = ["arch", "solved", "answered", "honest failure", "invented", "misattributed", "ungrounded names", "turns", "tool calls", "tokens generated", "s"];
  const rows = Object.entries(report.summary)
    .map(([arch, total]) => `<tr data-arch="${escapeHtml(arch)}">${[arch, `${total.solved}/${total.runs}`, total.answered, total.honestFailures, total.invented, total.misattributed, total.ungroundedNames, total.turns, total.toolCalls, total.tokens.generated, (total.ms / 1000).toFixed(1)].map((cell) => `<td>${escapeHtml(String(cell))}</td>`).join("")}</tr>`)
    .join("");
  const body = `<h1>Probe: ${escapeHtml(model.name)}</h1>
<p class="meta">${escapeHtml(model.wrapper)} format · ${model.parameters === null ? "?" : (model.parameters / 1e6).toFixed(2) + "M"} parameters · ${escapeHtml(model.quantisation)} · ${report.runs.length} runs in ${(report.ms / 1000).toFixed(1)} s</p>
<section class="card"><table><tr>${head.map((cell) => `<th>${cell}</th>`).join("")}</tr>${rows}</table></section>
${MEASURES.map((measure) => chart(measure, report)).join("\n")}`;
  return page(`narrowgauge probe: ${model.name}`, body);
}
