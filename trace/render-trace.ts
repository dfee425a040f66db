import { decisionEffect, type GuardDecision, type Judgement, type RunResult, type TurnRecord } from "../index.js";
import { html, json, page, SafeHtml } from "./html.js";

/** A number a run file holds, as text; anything else it might hold there (a hostile file) as its escaped text. */
const fixed = (ms: unknown) => (typeof ms === "number" ? `${ms.toFixed(0)} ms` : `${String(ms)} ms`);
const asJson = (value: unknown) => new SafeHtml(json(value));

function allowed(turn: TurnRecord): SafeHtml {
  const tools = turn.visible.tools.map((tool) => html`<span class="chip" data-allowed="${tool}">${tool}</span> `);
  const final = html`<span class="chip${turn.visible.final === true ? "" : " off"}" data-final="${String(turn.visible.final)}">FinalAnswer</span>`;
  const domains = Object.entries(turn.visible.enums).map(([key, values]) => html`<tr data-domain="${key}"><td>${key}</td><td>${values.map(String).join(", ")}</td></tr>`);
  return html`<dt>allowed</dt><dd><div class="row">${tools.length > 0 ? tools : html`<span class="muted">no tool</span> `}${final}</div>${domains.length > 0 ? html`<table><tr><th>narrowed</th><th>to</th></tr>${domains}</table>` : ""}</dd>`;
}

/** What a decision did, in words; a decision of a kind this version does not know (a hostile or newer run file) by its kind. */
function effect(decision: GuardDecision): string {
  try {
    return decisionEffect(decision) ?? String(decision.kind);
  } catch {
    return String(decision.kind);
  }
}

function decisions(list: readonly GuardDecision[]): SafeHtml | string {
  if (list.length === 0) return "";
  const items = list.map((decision) => html`<li class="${decision.kind}" data-decision="${decision.kind}" data-guard="${decision.guard}"><b>${decision.guard}</b> ${effect(decision)}: ${decision.reason}</li>`);
  return html`<dt>decisions</dt><dd><ul class="decisions">${items}</ul></dd>`;
}

function step(turn: TurnRecord): SafeHtml[] {
  const parts: SafeHtml[] = [];
  if (turn.step?.thought !== undefined) parts.push(html`<dt>thought</dt><dd data-thought>${turn.step.thought}</dd>`);
  const call = turn.step?.call;
  if (call?.tool === "FinalAnswer") parts.push(html`<dt>answer</dt><dd data-step-answer>${call.answer ?? ""}</dd>`);
  else if (call) parts.push(html`<dt>call</dt><dd data-call="${call.tool}"><b>${call.tool}</b> <pre>${asJson(call.args)}</pre></dd>`);
  if (turn.failure) parts.push(html`<dt>unusable</dt><dd data-failure="${turn.failure.code}">${turn.failure.code}: ${turn.failure.message}<details><summary>raw output</summary><pre>${turn.raw}</pre></details></dd>`);
  if (turn.tool) {
    const label = turn.tool.ok ? "result" : turn.tool.failure?.code === "refused" ? "refused" : "failed";
    parts.push(html`<dt>${label}</dt><dd data-result="${label}">${turn.tool.failure ? html`<span class="muted">${turn.tool.failure.code}</span> ` : ""}<pre>${asJson(turn.tool.result)}</pre></dd>`);
  }
  return parts;
}

/** For a served run: the server that sampled the step, and a failover on the way with what it cost. */
function served(turn: TurnRecord): SafeHtml | string {
  if (!turn.server) return "";
  const { url, failover } = turn.server;
  const moved = failover ? html` — after ${failover.from.map((from, index) => html`${index > 0 ? ", " : ""}${from} failed (${failover.kinds[index] ?? ""})`)}: ${fixed(failover.ms)} lost, ${failover.evaluated} prompt tokens evaluated again` : "";
  return html`<dt>server</dt><dd data-server${failover ? new SafeHtml(" data-failover") : ""}>${url}${moved}</dd>`;
}

/** The tools the prompt left out (where the tools' share of the context could not hold them all), each with why. A run file from before the field existed has none. */
function shortlistCard(result: RunResult): SafeHtml | string {
  const tools = (result as Partial<RunResult>).tools;
  if (!tools || !Array.isArray(tools.left) || tools.left.length === 0) return "";
  const shown = Array.isArray(tools.shown) ? tools.shown : [];
  const rows = tools.left.map((entry) => html`<dt>${String(entry?.name)}</dt><dd>${String(entry?.reason)}</dd>`);
  return html`<section class="card" id="tools"><div class="row"><h3>Tools: ${shown.length} of ${shown.length + tools.left.length} shown${tools.compact ? ", each by its first sentence" : ""}</h3></div><p class="meta">${shown.join(", ")}</p><dl>${rows}</dl></section>`;
}

/** Earlier exchanges of a conversation that left the prompt during this question. */
function droppedCard(result: RunResult): SafeHtml | string {
  if (result.dropped.length === 0) return "";
  const rows = result.dropped.map(
    (drop) =>
      html`<dt>before turn ${drop.turn}</dt><dd data-dropped="${drop.tasks.length}">${drop.tasks.map((task) => `“${task}”`).join(", ")} · ${drop.tokens} tokens left the prompt, ${drop.keptTokens} kept in the cache${drop.forgottenNumbers.length > 0 ? ` · no longer grounding: ${drop.forgottenNumbers.join(", ")}` : ""}</dd>`,
  );
  return html`<section class="card" id="dropped"><div class="row"><h3>Earlier exchanges that left the prompt</h3></div><dl>${rows}</dl></section>`;
}

const CHECK_CLASS: Record<string, string> = { ok: "ok", error: "refused", invalid: "refused", "bad-arguments": "refused", banned: "refused", "outside-view": "refused", declined: "refused", ungrounded: "refused", repeat: "warn", hidden: "refused", nudged: "warn", "ungrounded-accepted": "warn", incomplete: "refused", misattributed: "refused" };

function turnCard(turn: TurnRecord): SafeHtml {
  const reused = turn.prompt.tokens - turn.prompt.evaluated;
  const appended = turn.prompt.appended === null ? "" : `, ${turn.prompt.appended} appended`;
  const cost = `prompt ${turn.prompt.tokens} tokens (${turn.prompt.evaluated} evaluated, ${reused} reused${appended}) · ${turn.generatedTokens} generated · ${fixed(turn.ms.total)}`;
  return html`<section class="card" data-turn="${turn.index}">
<div class="row"><h3>Turn ${turn.index}</h3><span class="badge ${Object.hasOwn(CHECK_CLASS, turn.check ?? "") ? CHECK_CLASS[turn.check ?? ""] : ""}" data-check="${turn.check ?? ""}">${turn.check ?? "no step"}</span><span class="muted" data-cost>${cost}</span></div>
<dl>${allowed(turn)}${decisions(turn.guards)}${step(turn)}${served(turn)}</dl>
${turn.spy ? html`<details><summary>prompt spy (${turn.spy.tokens} tokens) and grammar</summary><pre>${turn.spy.prompt}</pre><pre>${turn.spy.grammar}</pre></details>` : ""}
</section>
`;
}

function judgementCard(judgement: Judgement): SafeHtml {
  const value = judgement.value === null ? `unusable (${judgement.failure?.code})` : JSON.stringify(judgement.value);
  return html`<section class="card" data-judgement="${judgement.kind}"><div class="row"><h3>${judgement.kind} judgement${judgement.turn > 0 ? ` (turn ${judgement.turn})` : ""}</h3><span class="muted">${judgement.prompt.tokens} prompt tokens (${judgement.prompt.evaluated} evaluated) · ${judgement.generatedTokens} generated</span></div><dl><dt>value</dt><dd>${value}</dd></dl></section>`;
}

/**
 * One run as a page a person reads: per turn what the grammar allowed, each
 * guard decision and why, the thought, the call and its result, refusals and
 * nudges, prompt tokens evaluated and reused, tokens generated and time, the
 * server and any failover; then how the run ended and its answer, and what
 * left a conversation's prompt. Self-contained: no script, no network. A
 * run file is something people attach to bug reports: every value it holds
 * is escaped (the `html` template), and the page's Content-Security-Policy
 * runs no script whatever got in.
 */
export function renderTrace(result: RunResult): string {
  const ending =
    result.status === "answered"
      ? html`<dd id="answer" data-answer>${result.answer}</dd>`
      : html`<dd id="answer" data-answer class="muted">no answer${result.partialAnswer ? `: ${result.partialAnswer}` : ""}${result.error ? ` (${result.error.code}: ${result.error.message})` : ""}</dd>`;
  const flags = [
    result.ungroundedNumbers.length > 0 ? `ungrounded numbers: ${result.ungroundedNumbers.join(", ")}` : "",
    result.ungroundedNames.length > 0 ? `ungrounded names: ${result.ungroundedNames.join(", ")}` : "",
    result.unverified ? "unverified: no tool result supports it" : "",
  ].filter(Boolean);
  const header = html`<h1>${result.task}</h1>
<p class="meta">${result.model.name} · ${result.model.wrapper} format · steps written as ${result.codec}${result.codecFallback ? ` (${result.codecFallback})` : ""} · profile ${result.profile} · ${result.turns.length} turn(s) · ${result.tokens.generated} tokens generated, ${result.tokens.evaluated} of ${result.tokens.prompt} prompt tokens evaluated · ${fixed(result.ms.total)}</p>
<section class="card" id="ending"><div class="row"><span class="badge ${result.status}" data-status="${result.status}">${result.status}</span><b data-reason="${result.reason}">${result.reason}</b></div><dl><dt>answer</dt>${ending}${flags.length > 0 ? html`<dt>flags</dt><dd>${flags.join("; ")}</dd>` : ""}</dl></section>`;
  const judgements = result.judgements.length > 0 ? html`<h2>Judgements</h2>${result.judgements.map(judgementCard)}` : "";
  return page(`narrowgauge trace: ${result.task}`, html`${header}${shortlistCard(result)}${droppedCard(result)}${judgements}<h2>Turns</h2>${result.turns.map(turnCard)}`);
}
