import { decisionEffect, type GuardDecision, type Judgement, type RunResult, type TurnRecord } from "../index.js";
import { escapeHtml, json, page } from "./html.js";

const fixed = (ms: number) => `${ms.toFixed(0)} ms`;

function allowed(turn: TurnRecord): string {
  const tools = turn.visible.tools.map((tool) => `<span class="chip" data-allowed="${escapeHtml(tool)}">${escapeHtml(tool)}</span>`).join(" ");
  const final = `<span class="chip${turn.visible.final ? "" : " off"}" data-final="${turn.visible.final}">FinalAnswer</span>`;
  const domains = Object.entries(turn.visible.enums)
    .map(([key, values]) => `<tr data-domain="${escapeHtml(key)}"><td>${escapeHtml(key)}</td><td>${values.map((value) => escapeHtml(String(value))).join(", ")}</td></tr>`)
    .join("");
  return `<dt>allowed</dt><dd><div class="row">${tools || '<span class="muted">no tool</span>'} ${final}</div>${domains ? `<table><tr><th>narrowed</th><th>to</th></tr>${domains}</table>` : ""}</dd>`;
}

function decisions(list: readonly GuardDecision[]): string {
  if (list.length === 0) return "";
  const items = list.map((decision) => `<li class="${decision.kind}" data-decision="${decision.kind}" data-guard="${escapeHtml(decision.guard)}"><b>${escapeHtml(decision.guard)}</b> ${escapeHtml(decisionEffect(decision))}: ${escapeHtml(decision.reason)}</li>`).join("");
  return `<dt>decisions</dt><dd><ul class="decisions">${items}</ul></dd>`;
}

function step(turn: TurnRecord): string {
  const parts: string[] = [];
  if (turn.step?.thought !== undefined) parts.push(`<dt>thought</dt><dd data-thought>${escapeHtml(turn.step.thought)}</dd>`);
  const call = turn.step?.call;
  if (call?.tool === "FinalAnswer") parts.push(`<dt>answer</dt><dd data-step-answer>${escapeHtml(call.answer ?? "")}</dd>`);
  else if (call) parts.push(`<dt>call</dt><dd data-call="${escapeHtml(call.tool)}"><b>${escapeHtml(call.tool)}</b> <pre>${json(call.args)}</pre></dd>`);
  if (turn.failure) parts.push(`<dt>unusable</dt><dd data-failure="${escapeHtml(turn.failure.code)}">${escapeHtml(turn.failure.code)}: ${escapeHtml(turn.failure.message)}<details><summary>raw output</summary><pre>${escapeHtml(turn.raw)}</pre></details></dd>`);
  if (turn.tool) {
    const label = turn.tool.ok ? "result" : turn.tool.failure?.code === "refused" ? "refused" : "failed";
    parts.push(`<dt>${label}</dt><dd data-result="${label}">${turn.tool.failure ? `<span class="muted">${escapeHtml(turn.tool.failure.code)}</span> ` : ""}<pre>${json(turn.tool.result)}</pre></dd>`);
  }
  return parts.join("");
}

/** For a served run: the server that sampled the step, and a failover on the way with what it cost. */
function served(turn: TurnRecord): string {
  if (!turn.server) return "";
  const { url, failover } = turn.server;
  const moved = failover ? ` — after ${failover.from.map((from, index) => `${escapeHtml(from)} failed (${escapeHtml(failover.kinds[index] ?? "")})`).join(", ")}: ${fixed(failover.ms)} lost, ${failover.evaluated} prompt tokens evaluated again` : "";
  return `<dt>server</dt><dd data-server${failover ? " data-failover" : ""}>${escapeHtml(url)}${moved}</dd>`;
}

/** Earlier exchanges of a conversation that left the prompt during this question. */
function droppedCard(result: RunResult): string {
  if (result.dropped.length === 0) return "";
  const rows = result.dropped.map(
    (drop) =>
      `<dt>before turn ${drop.turn}</dt><dd data-dropped="${drop.tasks.length}">${drop.tasks.map((task) => `“${escapeHtml(task)}”`).join(", ")} · ${drop.tokens} tokens left the prompt, ${drop.keptTokens} kept in the cache${drop.forgottenNumbers.length > 0 ? ` · no longer grounding: ${drop.forgottenNumbers.join(", ")}` : ""}</dd>`,
  );
  return `<section class="card" id="dropped"><div class="row"><h3>Earlier exchanges that left the prompt</h3></div><dl>${rows.join("")}</dl></section>`;
}

const CHECK_CLASS: Record<string, string> = { ok: "ok", error: "refused", invalid: "refused", "bad-arguments": "refused", banned: "refused", "outside-view": "refused", ungrounded: "refused", repeat: "warn", hidden: "refused", nudged: "warn", "ungrounded-accepted": "warn" };

function turnCard(turn: TurnRecord): string {
  const reused = turn.prompt.tokens - turn.prompt.evaluated;
  const appended = turn.prompt.appended === null ? "" : `, ${turn.prompt.appended} appended`;
  const cost = `prompt ${turn.prompt.tokens} tokens (${turn.prompt.evaluated} evaluated, ${reused} reused${appended}) · ${turn.generatedTokens} generated · ${fixed(turn.ms.total)}`;
  return `<section class="card" data-turn="${turn.index}">
<div class="row"><h3>Turn ${turn.index}</h3><span class="badge ${CHECK_CLASS[turn.check ?? ""] ?? ""}" data-check="${turn.check ?? ""}">${escapeHtml(turn.check ?? "no step")}</span><span class="muted" data-cost>${cost}</span></div>
<dl>${allowed(turn)}${decisions(turn.guards)}${step(turn)}${served(turn)}</dl>
${turn.spy ? `<details><summary>prompt spy (${turn.spy.tokens} tokens) and grammar</summary><pre>${escapeHtml(turn.spy.prompt)}</pre><pre>${escapeHtml(turn.spy.grammar)}</pre></details>` : ""}
</section>`;
}

function judgementCard(judgement: Judgement): string {
  const value = judgement.value === null ? `unusable (${judgement.failure?.code})` : JSON.stringify(judgement.value);
  return `<section class="card" data-judgement="${judgement.kind}"><div class="row"><h3>${judgement.kind} judgement${judgement.turn > 0 ? ` (turn ${judgement.turn})` : ""}</h3><span class="muted">${judgement.prompt.tokens} prompt tokens (${judgement.prompt.evaluated} evaluated) · ${judgement.generatedTokens} generated</span></div><dl><dt>value</dt><dd>${escapeHtml(value)}</dd></dl></section>`;
}

/**
 * One run as a page a person reads: per turn what the grammar allowed, each
 * guard decision and why, the thought, the call and its result, refusals and
 * nudges, prompt tokens evaluated and reused, tokens generated and time, the
 * server and any failover; then how the run ended and its answer, and what
 * left a conversation's prompt. Self-contained: no script, no network.
 */
export function renderTrace(result: RunResult): string {
  const ending =
    result.status === "answered"
      ? `<dd id="answer" data-answer>${escapeHtml(result.answer)}</dd>`
      : `<dd id="answer" data-answer class="muted">no answer${result.partialAnswer ? `: ${escapeHtml(result.partialAnswer)}` : ""}${result.error ? ` (${escapeHtml(result.error.code)}: ${escapeHtml(result.error.message)})` : ""}</dd>`;
  const flags = [
    result.ungroundedNumbers.length > 0 ? `ungrounded numbers: ${result.ungroundedNumbers.join(", ")}` : "",
    result.ungroundedNames.length > 0 ? `ungrounded names: ${result.ungroundedNames.join(", ")}` : "",
    result.unverified ? "unverified: no tool result supports it" : "",
  ].filter(Boolean);
  const header = `<h1>${escapeHtml(result.task)}</h1>
<p class="meta">${escapeHtml(result.model.name)} · ${escapeHtml(result.model.wrapper)} format · steps written as ${escapeHtml(result.codec)} · profile ${escapeHtml(result.profile)} · ${result.turns.length} turn(s) · ${result.tokens.generated} tokens generated, ${result.tokens.evaluated} of ${result.tokens.prompt} prompt tokens evaluated · ${fixed(result.ms.total)}</p>
<section class="card" id="ending"><div class="row"><span class="badge ${result.status}" data-status="${result.status}">${result.status}</span><b data-reason="${result.reason}">${escapeHtml(result.reason)}</b></div><dl><dt>answer</dt>${ending}${flags.length > 0 ? `<dt>flags</dt><dd>${escapeHtml(flags.join("; "))}</dd>` : ""}</dl></section>`;
  const judgements = result.judgements.length > 0 ? `<h2>Judgements</h2>${result.judgements.map(judgementCard).join("")}` : "";
  return page(`narrowgauge trace: ${result.task}`, `${header}${droppedCard(result)}${judgements}<h2>Turns</h2>${result.turns.map(turnCard).join("\n")}`);
}
