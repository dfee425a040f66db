#!/usr/bin/env node
import { packageVersion } from "./package-version.js";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { loadTools, McpAuthError, McpConnectError, McpSignInError, NarrowgaugeError } from "../index.js";
import { printable } from "./terminal-input.js";
import { WEATHER_TASK, weatherTools } from "../demos/weather-tools.js";
import { addAgentFlags, addModelFlags, UsageError, type FlagValues } from "./agent-flags.js";
import { collect, mountMcpServers } from "./mcp-flags.js";
import { addMcpAuthFlags, remoteAuthFromFlags, type McpAuthFlags } from "./mcp-auth-flags.js";
import { probeCommand } from "./probe-command.js";
import { checkTracePath, EXIT, runAndReport, type CliModel } from "./run-command.js";
import { serveCommand } from "./serve-command.js";
import { serverCommand } from "./server-command.js";
import { spyCommand } from "./spy-command.js";
import { commandLineApproval } from "./terminal-approval.js";
import { traceCommand } from "./trace-command.js";

const EXIT_CODES = "Exit codes: 0 answered, 1 failed or aborted (an MCP server that will not start or refuses the credentials too), 2 bad usage or a model that cannot load.";

const DEMO_HELP = [
  "Without --model: the trained demo model (4.8M parameters, shipped with narrowgauge). It learned these three tools,",
  "so the run reads like an answer; --profile none shows the same model without guards.",
  "--model tiny: the built-in random model, its weights picked by --seed (default 1): it knows nothing, so only the grammar",
  "and the checks keep it on the rails; use it to see what the guards do for a model that cannot follow a single sentence.",
  "--max-turns defaults to 6 here.",
].join("\n");

/** What the demo says under the model's name when it runs on its trained model. */
function demoModelIntro(profile: unknown): string[] {
  const look =
    profile === "none"
      ? "No guards (--profile none): every tool and value can be written, so watch which city it fetches and what its answer states."
      : "Look at `may call` (what the grammar allowed) and `narrowed` (domains and numbers the guards cut down): the answer may hold only numbers from the task and the tools' results.";
  return ["        trained demo model: it learned this demo's three tools and little else.", `        ${look}`];
}

/** The narrowgauge command line. Returns the exit code rather than exiting, so it can be tested. */
export async function runCli(argv: readonly string[]): Promise<number> {
  let code: number = EXIT.answered;
  const program = new Command("narrowgauge")
    .description("Grammar-first tool-using agents on small local models.")
    .version(packageVersion(), "-V, --version", "print narrowgauge's version")
    .addHelpText("after", `\n${EXIT_CODES}`)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  addMcpAuthFlags(addAgentFlags(addModelFlags(program.command("run"))))
    .description("run an agent over the tools a module exports, on one task")
    .option("--tools <module>", "a .ts or .js module exporting tools made with defineTool (TypeScript loads without a build step)")
    .option("--mcp <server>", 'an MCP server\'s tools: "<command and args>" (stdio; split into words as a POSIX shell does, nothing expanded: no operators, no $VARIABLES) or an http(s) URL; repeatable', collect)
    .option("--allow-destructive <names>", "tools that need approval (destructive MCP tools, tools whose annotations say destructive) that run without asking (comma-separated, or all); by default each call is asked on a terminal, and they are switched off where none can be asked", (text: string) => text.split(",").map((name) => name.trim()))
    .option("--mcp-roots", "offer the working directory to --mcp servers as their root (MCP roots); by default none is offered")
    .option("--mcp-sampling", "answer --mcp servers' sampling requests with the run's model without asking; by default each is asked on a terminal, and sampling is not offered without one")
    .option("--json", "print the result object as JSON on stdout, and nothing else")
    .option("--trace <file>", "write the run as a self-contained HTML page")
    .argument("<task>", "the question or instruction")
    .addHelpText("after", `\n${EXIT_CODES}`)
    .action(async (task: string, flags: FlagValues & McpAuthFlags & { tools?: string; mcp?: string[]; allowDestructive?: string[]; mcpRoots?: boolean; mcpSampling?: boolean; json?: boolean; trace?: string }) => {
      if (!task.trim()) throw new UsageError("the task must not be empty");
      if (!flags.tools && !flags.mcp) throw new UsageError("give the tools: --tools <module>, --mcp <server>, or both");
      // Real tools are not called by a random model on a guess: the model is named (tiny, the random test model, on purpose).
      if (!flags.model) throw new UsageError("give the model: --model <file.gguf>, a llama-server URL, demo (the trained weather model), or tiny (random weights, for testing); `narrowgauge server start --model <file.gguf>` serves one");
      await checkTracePath(flags.trace);
      const own = flags.tools ? await loadTools(flags.tools) : [];
      let model: CliModel | null = null;
      const auth = remoteAuthFromFlags(flags, (line) => process.stderr.write(`${line}\n`));
      const mounted = flags.mcp
        ? await mountMcpServers(flags.mcp, { ...(flags.allowDestructive ? { allowDestructive: flags.allowDestructive } : {}), auth, roots: flags.mcpRoots === true, sampling: flags.mcpSampling === true, model: () => model })
        : null;
      try {
        const { tools, approve } = commandLineApproval([...own, ...(mounted?.tools ?? [])], { allowDestructive: flags.allowDestructive, disabledTools: flags.disabledTools as string[] | undefined });
        code = await runAndReport({ flags, tools, task, defaultModel: "tiny", defaults: approve ? { approve } : {}, onModel: (loaded) => (model = loaded) });
      } finally {
        await mounted?.close();
      }
    });

  addAgentFlags(addModelFlags(program.command("demo")))
    .description(`the reference task ("${WEATHER_TASK}") over the demo's weather tools`)
    .option("--task <text>", "any other question over the demo's tools", WEATHER_TASK)
    .option("--json", "print the result object as JSON on stdout, and nothing else")
    .option("--trace <file>", "write the run as a self-contained HTML page")
    .addHelpText("after", `\n${DEMO_HELP}\n${EXIT_CODES}`)
    .action(async (flags: FlagValues & { task: string; json?: boolean; trace?: string }) => {
      if (!flags.task.trim()) throw new UsageError("--task must not be empty");
      await checkTracePath(flags.trace);
      const seed = flags.seed ?? 1;
      // --model tiny is the random adversary, its weights picked by --seed.
      const model = flags.model === "tiny" ? `tiny:${seed}` : flags.model;
      code = await runAndReport({
        flags: { ...flags, model, seed },
        tools: weatherTools,
        task: flags.task,
        defaultModel: "demo",
        defaults: { profile: "sub1b", maxTurns: 6 },
        ...(model === undefined || model === "demo" ? { explain: demoModelIntro(flags.profile) } : {}),
      });
    });

  probeCommand(addModelFlags(program.command("probe"), "tiny"), (result) => (code = result));
  spyCommand(addAgentFlags(addModelFlags(program.command("spy"), "tiny")), (result) => (code = result));
  traceCommand(program.command("trace"), (result) => (code = result));
  serverCommand(program.command("server"), (result) => (code = result));
  serveCommand(addAgentFlags(program.command("serve")), (result) => (code = result));

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.answered : EXIT.usage;
    // A server that will not start, or refuses the credentials, is a run that failed (the message says what to pass), not bad usage.
    if (error instanceof McpConnectError || error instanceof McpAuthError || error instanceof McpSignInError) {
      // A server's words (a response body, an error_description) reach a terminal: control characters escaped.
      process.stderr.write(`${printable(error.message)}\n`);
      return EXIT.failed;
    }
    // Bad usage, and configuration the library refuses before any model call (a tools module that does not load, a tool definition that does not hold together, an option out of range).
    if (error instanceof UsageError || error instanceof NarrowgaugeError || error instanceof RangeError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  return code;
}

/** Run as a program (the package's bin, or tsx cli/narrowgauge.ts). */
const invokedPath = process.argv[1] ? realpathSync(process.argv[1]) : "";
if (invokedPath === fileURLToPath(import.meta.url) || invokedPath === fileURLToPath(import.meta.url).replace(/\.ts$/, ".js")) {
  // A reader that stops early (| head) is not an error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.exitCode = await runCli(process.argv);
}
