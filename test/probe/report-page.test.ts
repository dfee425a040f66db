import { describe, expect, it } from "vitest";
import { renderProbeHtml } from "../../probe/report-page.js";
import type { ArchitectureTotals, ProbeReport } from "../../probe/report.js";

/** A column's totals: 23 runs, the rest zero unless given (the tiny model's published numbers, docs/probe.md). */
const totals = (extra: Partial<ArchitectureTotals>): ArchitectureTotals => ({
  runs: 23, solved: 0, answered: 0, honestFailures: 0, invented: 0, errors: 0, turns: 0, toolCalls: 0, malformed: 0, inventedToolNames: 0,
  rejected: 0, ungroundedInFinal: 0, ungroundedNames: 0, misattributed: 0, repeats: 0, tokens: { generated: 0, evaluated: 0 }, ms: 0, ...extra,
});

const report = (summary: Record<string, ArchitectureTotals>, name = "tiny"): ProbeReport => ({
  model: { name, file: "tiny.gguf", wrapper: "ChatML", threads: 1, sampling: { family: "default", source: "preset" }, parameters: 100_000, sizeBytes: 1, quantisation: "F32", builtIn: true },
  runs: [],
  summary,
  ms: 1000,
});

const TINY = report({
  A: totals({ solved: 3, answered: 23, turns: 77, tokens: { generated: 21549, evaluated: 47761 } }),
  B: totals({ solved: 3, answered: 1, invented: 1, turns: 102, tokens: { generated: 6454, evaluated: 10164 } }),
  C: totals({ solved: 3, answered: 23, turns: 77, tokens: { generated: 22948, evaluated: 24436 } }),
  P: totals({ solved: 0, answered: 23, turns: 23, tokens: { generated: 23552, evaluated: 8960 } }),
});

/** One chart of the page: its scale, and each bar's width as a share of its track. */
function chart(page: string, measure: string) {
  const figure = new RegExp(`<figure class="card" data-measure="${measure}">(.*?)</figure>`).exec(page)?.[1];
  expect(figure, measure).toBeDefined();
  const track = Number(/<rect class="track"[^>]* width="(\d+)"/.exec(figure!)![1]);
  const bars = Object.fromEntries([...figure!.matchAll(/<rect class="bar"[^>]* width="(\d+)"[^>]* data-arch="([^"]+)"/g)].map(([, width, arch]) => [arch, Number(width) / track]));
  return { bars, scale: /data-scale="([^"]+)"/.exec(figure!)![1], text: figure!.replace(/<[^>]+>/g, " ") };
}

describe("the probe's HTML page", () => {
  it("explains each architecture letter in one line and points to docs/probe.md", () => {
    const page = renderProbeHtml(TINY);
    const legend = /<section class="card" id="legend">(.*?)<\/section>/.exec(page)![1]!;
    for (const [arch, words] of [["A", "digest"], ["B", "no guards"], ["C", "by model size"], ["P", "node-llama-cpp's own function calling"]] as const) {
      expect(legend).toMatch(new RegExp(`<dt data-legend="${arch}">${arch}</dt><dd>[^<]*${words.replace(/'/g, "&#39;")}[^<]*</dd>`));
    }
    expect(legend).toContain("docs/probe.md");
    // Self-contained: no link, script or image reaches for anything.
    expect(page).not.toMatch(/<(a|script|img|link)\b|https?:/);
  });

  it("draws a share against its own denominator: 3 of 23 solved is about 13 % of a bar, not a full one", () => {
    const solved = chart(renderProbeHtml(TINY), "solved");
    for (const arch of ["A", "B", "C"]) expect(solved.bars[arch]).toBeCloseTo(3 / 23, 2);
    expect(solved.bars.P).toBe(0);
    expect(solved.scale).toBe("share");
    expect(solved.text).toContain("3/23");
    expect(chart(renderProbeHtml(TINY), "invented \\(answers with an ungrounded number\\)").bars.B).toBeCloseTo(1 / 23, 2);
  });

  it("draws a count against a round maximum stated beside the chart", () => {
    const turns = chart(renderProbeHtml(TINY), "turns");
    expect(turns.scale).toBe("120");
    expect(turns.text).toContain("scale: 0 to 120 turns");
    expect(turns.bars.B).toBeCloseTo(102 / 120, 2);
    expect(turns.bars.P).toBeCloseTo(23 / 120, 2);
    const tokens = chart(renderProbeHtml(TINY), "tokens generated");
    expect(tokens.scale).toBe("25000");
    expect(tokens.text).toContain("scale: 0 to 25,000 tokens");
  });

  it("explains codec columns, and escapes what a report file holds", () => {
    const page = renderProbeHtml(report({ "C json": totals({ solved: 1 }), "C native": totals({ solved: 2 }), P: totals({}) }, '<img src=x onerror="alert(1)">'));
    expect(page).toContain('<dt data-legend="C">C</dt>');
    expect(page).not.toContain('data-legend="A"');
    expect(page).toContain("“C json”");
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(chart(page, "solved").bars["C native"]).toBeCloseTo(2 / 23, 2);
  });
});
