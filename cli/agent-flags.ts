import { InvalidArgumentError, Option, type Command } from "commander";
import { NarrowgaugeError, RUN_OPTIONS, SAMPLING_FIELDS, type OpenModelOptions, type OptionDeclaration, type RunAgentOptions } from "../index.js";

/** A usage error: the CLI exits with code 2. */
/** The command line was used wrongly: a flag or an argument that cannot mean anything. */
export class UsageError extends NarrowgaugeError {
  readonly code = "usage";
  readonly endsRun = true;
}

const integer = (min: number) => (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError(`must be an integer ≥ ${min}`);
  return value;
};
const list = (text: string) => text.split(",").map((item) => item.trim()).filter(Boolean);
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The flags every command that loads a model shares. */
export function addModelFlags(command: Command, defaultModel?: string): Command {
  return command
    .addOption(new Option("--model <source>", "a GGUF path, demo (the trained weather model), tiny or tiny:SEED (the built-in random model), hf:user/repo/file.gguf (downloaded once), or http://host:port of a llama-server (several, comma-separated)").default(defaultModel))
    .option("--vocabulary <gguf>", "with a server: a local copy of the served GGUF, for its tokenizer and chat template (default: the path the server reports)")
    // From the environment too, so that the key need not be typed where a process list or a shell history shows it.
    .addOption(new Option("--api-key <key>", "with a server started with --api-key: its key, sent with every request").env("NARROWGAUGE_API_KEY"))
    .option("--threads <n>", "CPU threads (default: 1 below 256 MiB, else the cores)", integer(1))
    .option("--context-size <tokens>", "tokens one run can hold (default: the training context capped at 4096)", integer(64))
    .option("--sequences <n>", "concurrent runs the handle serves (default: 4 below 256 MiB, else 1)", integer(1))
    .option("--prompt-cache <dir>", "keep the evaluated prompt (system prompt and tool documentation) in this directory, so the next process with the same model and tools starts warm");
}

/** One declared option as a command-line flag: its shape, range and help text come from the declaration. */
function flagFor(name: string, declaration: OptionDeclaration<unknown, unknown>): Option | null {
  const { flag } = declaration;
  if (!flag) return null;
  if (flag.shape === "switch") return declaration.default === true ? new Option(`--no-${kebab(name)}`, `do not ${declaration.doc}`) : new Option(`--${kebab(name)}`, declaration.doc);
  const help = `${declaration.doc} (default: ${declaration.defaultText})`;
  const option = new Option(`--${kebab(name)} <${flag.placeholder ?? "value"}>`, help);
  if (flag.choices) return option.choices(flag.choices);
  if (flag.shape === "list") return option.argParser(list);
  const parse = flag.parse;
  if (!parse) return option;
  return option.argParser((text: string) => {
    try {
      return parse(text);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  });
}

/** Every runAgent option the command line can carry, as RUN_OPTIONS declares it, and each sampling field (the model family's preset fills the rest). */
export function addAgentFlags(command: Command): Command {
  for (const [name, declaration] of Object.entries(RUN_OPTIONS)) {
    const option = flagFor(name, declaration as OptionDeclaration<unknown, unknown>);
    if (option) command.addOption(option);
  }
  for (const [name, declaration] of Object.entries(SAMPLING_FIELDS)) command.addOption(flagFor(name, declaration)!);
  return command;
}

/** What commander parsed: the model flags, and the declared options by name. */
export interface FlagValues extends Record<string, unknown> {
  model?: string;
  vocabulary?: string;
  apiKey?: string;
  threads?: number;
  contextSize?: number;
  sequences?: number;
  promptCache?: string;
  seed?: number;
  spy?: boolean;
}

export function modelOptions(flags: FlagValues): Omit<OpenModelOptions, "source"> {
  return { threads: flags.threads, contextSize: flags.contextSize, sequences: flags.sequences, ...(flags.promptCache ? { promptCache: flags.promptCache } : {}) };
}

/** The runAgent options the flags set; sampling starts from the model family's preset. */
export function agentOptions(flags: FlagValues, preset: RunAgentOptions["sampling"] & object): Partial<RunAgentOptions> {
  const sampling: Record<string, unknown> = { ...preset };
  for (const name of Object.keys(SAMPLING_FIELDS)) if (flags[name] !== undefined) sampling[name] = flags[name];
  const options: Record<string, unknown> = { sampling };
  for (const [name, declaration] of Object.entries(RUN_OPTIONS)) if ((declaration as OptionDeclaration<unknown, unknown>).flag && flags[name] !== undefined) options[name] = flags[name];
  return options as Partial<RunAgentOptions>;
}
