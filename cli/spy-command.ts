import type { Command } from "commander";
import { describeDecision, loadTools, spyFirstTurn, type FirstTurn } from "../index.js";
import { weatherTools } from "../demos/weather-tools.js";
import { agentOptions, type FlagValues } from "./agent-flags.js";
import { EXIT, loadCliModel } from "./run-command.js";

/** What turn 1 offers, and each guard decision that shaped it (why a tool is hidden, banned or off, a domain narrowed). */
function offered(turn: FirstTurn): string {
  const narrowed = Object.entries(turn.visible.enums).map(([parameter, values]) => `\n  ${parameter} narrowed to ${values.join(", ")}`);
  const decisions = turn.guards.map((decision) => `\n  ${describeDecision(decision)}`);
  return `── may call: ${[...turn.visible.tools, ...(turn.visible.final ? ["FinalAnswer"] : [])].join(", ") || "nothing"} ──${narrowed.join("")}\n── guards ──${decisions.join("") || "\n  none"}\n`;
}

/** narrowgauge spy: the first prompt and grammar of a run, rendered but not sampled. */
export function spyCommand(command: Command, done: (code: number) => void): Command {
  return command
    .description("print the exact first prompt (special tokens visible) and step grammar for a task, without sampling")
    .option("--tools <module>", "a module exporting tools (default: the demo's weather tools)")
    .option("--json", "print { prompt, tokens, grammar, visible, guards, codec } as JSON")
    .argument("<task>", "the question or instruction")
    .action(async (task: string, flags: FlagValues & { tools?: string; json?: boolean }) => {
      const tools = flags.tools ? await loadTools(flags.tools) : weatherTools;
      const model = await loadCliModel(flags.model ?? "tiny", flags);
      if (!model) return done(EXIT.usage);
      try {
        const turn = spyFirstTurn({ ...agentOptions(flags, model.description.sampling.sampling), model, tools, task });
        if (flags.json) process.stdout.write(`${JSON.stringify(turn, null, 2)}\n`);
        else process.stdout.write(`── prompt (${turn.tokens} tokens) ──\n${turn.prompt}\n${offered(turn)}── step (codec ${turn.codec.name}): ${turn.codec.syntax} ──\n── grammar ──\n${turn.grammar}`);
        done(EXIT.answered);
      } finally {
        await model.dispose();
      }
    });
}
