import type { LoadProgress, PromptProgress, RunEvent } from "../index.js";

/**
 * The words of the demo page's status lines. In the page a model of a few
 * MB to a few hundred loads for a while, and a first prompt of a thousand
 * tokens or more is read for tens of seconds before the first token streams:
 * without these lines the page looks stuck. Plain strings; the page sets
 * them as text.
 */

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** While a model loads: megabytes fetched (of the total, where the server says one and it holds), then the hand-over to llama.cpp. */
export function loadingLine(name: string, progress: LoadProgress): string {
  if (progress.stage === "loading") return `loading the model ${name} into llama.cpp: ${megabytes(progress.bytes)}…`;
  const total = progress.totalBytes !== null && progress.totalBytes >= progress.bytes ? ` of ${megabytes(progress.totalBytes)}` : "";
  return `loading the model ${name}: ${megabytes(progress.bytes)}${total} fetched…`;
}

/** While a run goes: which turn it is in and what the model is doing there, from the run's events and the prompt's progress. */
export class RunProgress {
  private turn = 0;
  private maxTurns = 0;
  /** The line as it stands. */
  line = "";

  /** The line after one of the run's events (unchanged by events that say nothing new about progress). */
  event(event: RunEvent): string {
    switch (event.type) {
      case "run-start":
        [this.turn, this.maxTurns] = [0, event.maxTurns];
        return (this.line = `starting: ${event.tools.length} tool(s), at most ${event.maxTurns} turns`);
      case "turn-start":
        this.turn = event.index;
        return this.at("rendering the prompt");
      case "text":
        return this.at(`writing the ${event.field}`);
      case "tool-start":
        return this.at(`calling ${event.name}`);
      case "run-end":
        return (this.line = `${event.result.status} after ${event.result.turns.length} turn(s)`);
      default:
        return this.line;
    }
  }

  /** The line as a generation reads its prompt: tokens evaluated of those the KV cache did not hold. */
  prompt(progress: PromptProgress): string {
    const kept = progress.reused > 0 ? `; ${progress.reused} kept from before` : "";
    return progress.evaluated < progress.tokens
      ? this.at(`reading the prompt: ${progress.evaluated} of ${progress.tokens} tokens${kept}`)
      : this.at(`prompt read (${progress.tokens} tokens${kept}), sampling`);
  }

  private at(doing: string): string {
    return (this.line = `${this.turn > 0 ? `turn ${this.turn} of ${this.maxTurns}` : "before the first turn"}: ${doing}`);
  }
}
