import { decisionEffect, describeDecision, type GuardDecision, type RunEvent, type RunResult, type ToolShortlist } from "../index.js";
import type { Paint } from "./terminal.js";

const short = (value: unknown, max = 100): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/**
 * What a transcript prints of a turn's decisions: what changes the course of a
 * run (bans, switched-off tools, forced finals, the answer gate). Routine
 * narrowing shows in the "may call" and "narrowed" lines; call refusals show as
 * the refused result.
 */
const NOTABLE = new Set<GuardDecision["kind"]>(["switch-off", "ban", "force-final", "judge", "nudge", "skip"]);
const isNotable = (decision: GuardDecision) => NOTABLE.has(decision.kind) || (decision.kind === "refuse" && decision.check === "deferral");

/** Which tools the prompt shows, when it cannot show them all as written: how many, how they were chosen, and what was left out. */
function shortlistLine(shortlist: ToolShortlist): string {
  const total = shortlist.shown.length + shortlist.left.length;
  const off = shortlist.left.filter((entry) => entry.kind === "off").map((entry) => entry.name);
  const ranked = shortlist.left.filter((entry) => entry.kind !== "off").map((entry) => entry.name);
  return [
    `Tools: ${shortlist.shown.length} of ${total} shown${shortlist.compact ? ", each by its first sentence," : ""} to fit ${shortlist.budget} tokens (--tool-share of the context): ${shortlist.shown.join(", ")}`,
    ...(shortlist.minimal.length > 0 ? [`  by their parameters' names and types alone (each one's documentation alone outgrew that): ${shortlist.minimal.join(", ")}`] : []),
    ...(ranked.length > 0 ? [`  left out (the task's words matched them less): ${ranked.join(", ")}`] : []),
    ...(off.length > 0 ? [`  left out (never offered: switched off or disabled): ${off.join(", ")}`] : []),
  ].join("\n");
}

/**
 * Prints a run as it happens. With `live`, the thought and the answer are
 * written token by token as they are sampled (a terminal); otherwise each
 * turn is printed whole when it ends.
 */
export function runPrinter(options: { spy: boolean; live: boolean; paint: Paint; write?: (line: string) => void; intro?: readonly string[] }): (event: RunEvent) => void {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { paint } = options;
  let streaming: string | null = null;
  const streamed = new Set<string>();
  // What the last turn printed as not offered: printed again only when it changes.
  let lastHidden = "";
  return (event) => {
    switch (event.type) {
      case "run-start":
        write(`Task: ${event.task}`);
        const where = event.model.server ? `served by ${event.model.server.urls.join(", ")}, llama-server ${event.model.server.builds.join(", ")}` : `${event.model.threads} thread(s)`;
        write(`Model: ${event.model.name} (${event.model.wrapper} format, ${where})`);
        if (event.codecFallback) write(paint.dim(`        steps written as ${event.codec}: ${event.codecFallback}`));
        if (event.model.builtIn) write(paint.dim("        built-in tiny model: random weights, so its thoughts and answers are gibberish; only the grammar keeps it on the rails."));
        for (const line of options.intro ?? []) write(paint.dim(line));
        if (event.shortlist.left.length > 0 || event.shortlist.minimal.length > 0) write(shortlistLine(event.shortlist));
        return;
      case "text": {
        if (!options.live) return;
        const key = `${event.index}:${event.field}`;
        if (streaming !== key) {
          process.stdout.write(`${streaming === null ? "" : "\n"}${paint.dim(`  ${event.field === "thought" ? "thought" : "answer "}: `)}`);
          streaming = key;
          streamed.add(key);
        }
        process.stdout.write(event.text);
        return;
      }
      case "judgement": {
        const { judgement } = event;
        const value = judgement.value === null ? `unusable (${judgement.failure?.code})` : JSON.stringify(judgement.value);
        write(`\n${judgement.kind} judgement${judgement.turn > 0 ? ` (turn ${judgement.turn})` : ""}: ${value} · ${judgement.prompt.tokens} prompt tokens, ${judgement.generatedTokens} generated`);
        if (options.spy && judgement.spy) write(`  ── prompt spy ──\n${judgement.spy.prompt}\n  ── grammar ──\n${judgement.spy.grammar}`);
        return;
      }
      case "turn-end": {
        if (streaming !== null) process.stdout.write("\n");
        streaming = null;
        const { turn } = event;
        const visible = [...turn.visible.tools, ...(turn.visible.final ? ["FinalAnswer"] : [])].join(", ");
        write(`\n${paint.bold(`turn ${turn.index}`)} · may call: ${visible}`);
        const narrowed = Object.entries(turn.visible.enums).map(([key, values]) => `${key} ∈ {${values.join(", ")}}`);
        if (narrowed.length > 0) write(`  narrowed: ${narrowed.join(" · ")}`);
        // Why what is not offered is not (a tool hidden, FinalAnswer held back): said when it changes, so a user never sees a tool vanish without a reason.
        const hidden = turn.guards.filter((decision) => decision.kind === "hide-tool" || decision.kind === "hide-final").map((decision) => `${decisionEffect(decision)} (${decision.reason})`).join("; ");
        if (hidden !== lastHidden && hidden !== "") write(paint.dim(`  not offered: ${hidden}`));
        lastHidden = hidden;
        for (const decision of turn.guards.filter(isNotable)) write(paint.yellow(`  ${describeDecision(decision)}`));
        write(paint.dim(`  prompt ${turn.prompt.tokens} tokens (${turn.prompt.evaluated} evaluated) · ${turn.generatedTokens} generated · ${turn.ms.total.toFixed(0)} ms`));
        if (options.spy && turn.spy) write(`  ── prompt spy ──\n${turn.spy.prompt}\n  ── grammar ──\n${turn.spy.grammar}`);
        if (turn.step) {
          if (turn.step.thought !== undefined && !streamed.has(`${turn.index}:thought`)) write(`  thought: ${short(turn.step.thought)}`);
          const { call } = turn.step;
          if (call.tool === "FinalAnswer") {
            if (!streamed.has(`${turn.index}:answer`)) write(`  answer:  ${short(call.answer, 300)}`);
          } else write(`  call:    ${call.tool} ${JSON.stringify(call.args)}`);
        } else if (turn.failure) {
          write(paint.red(`  unusable output (${turn.failure.code}): ${short(turn.raw)}`));
        }
        if (turn.tool) write(`  ${turn.tool.ok ? "result" : turn.check === "repeat" ? "repeat" : turn.check === "declined" ? "declined" : "refused"}:  ${short(turn.tool.result, 200)}`);
        else if (turn.check && turn.check !== "ok" && turn.check !== "invalid") write(`  check:   ${turn.check}`);
        return;
      }
      default:
        return;
    }
  };
}

/** The run's ending, the answer and the totals; with `answerLast`, the answer is the last line. */
export function printSummary(result: RunResult, paint: Paint, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`), options: { answerLast?: boolean } = {}): void {
  const headline = `${result.status.toUpperCase()} (${result.reason}) after ${result.turns.length} turn(s)`;
  write(`\n${result.status === "answered" ? paint.green(headline) : paint.red(headline)}`);
  const outcome = () => {
    if (result.status === "answered") write(`Answer${result.unverified ? " (unverified: no tool result supports it)" : ""}: ${result.answer}`);
    if (result.partialAnswer !== null) write(result.partialAnswer);
    if (result.error) write(`Model error: ${result.error.message}`);
    if (result.reason === "context-overflow") write(paint.dim("  (a larger --context-size, up to the model's training context, or a smaller --max-tokens-per-step makes room; so do fewer tools)"));
  };
  if (!options.answerLast) outcome();
  write(
    `Tokens: ${result.tokens.prompt} prompt (${result.tokens.evaluated} evaluated), ${result.tokens.generated} generated · ` +
      `${result.ms.total.toFixed(0)} ms (render ${result.ms.render.toFixed(0)}, grammar ${result.ms.grammar.toFixed(0)}, ` +
      `prompt ${result.ms.prompt.toFixed(0)}, sampling ${result.ms.sampling.toFixed(0)}, tools ${result.ms.tool.toFixed(0)})`,
  );
  if (options.answerLast) outcome();
}
