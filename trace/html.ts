/** Small helpers for narrowgauge's self-contained HTML pages: no scripts from anywhere, no external assets. */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!);

/** HTML a template wrote: interpolated into another without escaping. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const piece = (value: unknown): string => (value instanceof SafeHtml ? value.text : Array.isArray(value) ? value.map(piece).join("") : value === null || value === undefined || value === false ? "" : escapeHtml(String(value)));

/**
 * A template of HTML whose every interpolated value is escaped (text,
 * attribute values, numbers a run file may hold as anything), but for HTML
 * another `html` template wrote; arrays join, and null, undefined and false
 * write nothing. The one way pages interpolate: nothing a run file holds
 * reaches a page unescaped.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, index) => out + text + (index < values.length ? piece(values[index]) : ""), ""));
}

/** A value as readable JSON, escaped. */
export const json = (value: unknown): string => escapeHtml(typeof value === "string" ? value : (JSON.stringify(value, null, 1) ?? "undefined"));

const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5d6675; --line: #d9dde5; --ok: #1c7c45; --warn: #9a6400; --bad: #b3261e; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); margin: 0; padding: 24px; }
main { max-width: 1080px; margin: 0 auto; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; } h3 { font-size: 14px; margin: 0; }
.meta, .muted { color: var(--muted); }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 12px 0; }
.row { display: flex; gap: 8px; flex-wrap: wrap; align-items: baseline; }
.chip { display: inline-block; padding: 1px 8px; border-radius: 999px; border: 1px solid var(--line); background: #fbfcfd; font-size: 12px; }
.chip.off { text-decoration: line-through; color: var(--muted); }
.badge { font-weight: 600; padding: 1px 8px; border-radius: 4px; font-size: 12px; color: #fff; background: var(--muted); }
.badge.ok, .badge.answered { background: var(--ok); } .badge.refused, .badge.failed { background: var(--bad); } .badge.warn, .badge.aborted { background: var(--warn); }
dl { display: grid; grid-template-columns: 110px minmax(0, 1fr); gap: 4px 12px; margin: 8px 0 0; } dt { color: var(--muted); } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
ul.decisions { margin: 6px 0 0; padding-left: 18px; } ul.decisions li.refuse { color: var(--bad); } ul.decisions li.force-final, ul.decisions li.ban, ul.decisions li.nudge { color: var(--warn); }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); font-size: 13px; }
.bar { fill: #4a6fa5; } .track { fill: #eef1f5; } .bar-label { font-size: 11px; fill: var(--ink); } .axis { font-size: 11px; fill: var(--muted); }
details summary { cursor: pointer; color: var(--muted); }
`;

/** What a page may load: nothing but its own inline style and inline images; no script runs, whatever text got in. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** A whole page: a title and a body, styled inline, under a Content-Security-Policy that runs no script. */
export function page(title: string, body: string | SafeHtml): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${String(body)}</main></body></html>\n`;
}
