import { InvalidArgumentError, Option, type Command } from "commander";
import { PROFILES, RUN_DEFAULTS, type OpenModelOptions, type ProfileName, type RunAgentOptions } from "../index.js";

/** A usage error: the CLI exits with code 2. */
export class UsageError extends Error {}

const integer = (min: number) => (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new InvalidArgumentError(`must be an integer ≥ ${min}`);
  return value;
};
const number = (min: number) => (text: string) => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < min) throw new InvalidArgumentError(`must be a number ≥ ${min}`);
  return value;
};
const list = (text: string) => text.split(",").map((item) => item.trim()).filter(Boolean);

/** The flags every command that loads a model shares. */
export function addModelFlags(command: Command, defaultModel?: string): Command {
  return command
    .addOption(new Option("--model <source>", "a GGUF path, tiny or tiny:SEED (the built-in random model), hf:user/repo/file.gguf (downloaded once), or http://host:port of a llama-server (several, comma-separated)").default(defaultModel))
    .option("--vocabulary <gguf>", "with a server: a local copy of the served GGUF, for its tokenizer and chat template (default: the path the server reports)")
    .option("--threads <n>", "CPU threads (default: 1 below 256 MiB, else the cores)", integer(1))
    .option("--context-size <tokens>", "tokens one run can hold (default: the training context capped at 4096)", integer(64))
    .option("--sequences <n>", "concurrent runs the handle serves (default: 4 below 256 MiB, else 1)", integer(1));
}

/** Every runAgent option as a flag (the model, tools and task come from the command). */
export function addAgentFlags(command: Command): Command {
  return command
    .addOption(new Option("--profile <name>", "guard profile (default: by the model's size, sub1b when unknown)").choices(Object.keys(PROFILES)))
    .option("--max-turns <n>", `turn budget (default ${RUN_DEFAULTS.maxTurns})`, integer(1))
    .addOption(new Option("--require-tool <when>", "whether the answer must rest on a tool result (default always)").choices(["always", "never", "auto"]))
    .option("--gate-budget <n>", `nudges the answer gate may send (default ${RUN_DEFAULTS.gateBudget})`, integer(0))
    .option("--disabled-tools <names>", "tools documented but never offered, comma-separated", list)
    .option("--thought-max-length <n>", `cap on the thought (default ${RUN_DEFAULTS.thoughtMaxLength})`, integer(0))
    .option("--answer-max-length <n>", `cap on the answer (default ${RUN_DEFAULTS.answerMaxLength})`, integer(1))
    .option("--max-tokens-per-step <n>", `cap on tokens sampled per step (default ${RUN_DEFAULTS.maxTokensPerStep})`, integer(1))
    .option("--temperature <t>", "sampling temperature (default: the model family's preset, greedy for most)", number(0))
    .option("--seed <n>", "sampling seed (for tiny:SEED models, --model picks the weights)", integer(0))
    .option("--top-k <n>", "top-k sampling", integer(1))
    .option("--top-p <p>", "top-p sampling", number(0))
    .option("--min-p <p>", "min-p sampling", number(0))
    .option("--tool-timeout-ms <ms>", `per-call tool timeout (default ${RUN_DEFAULTS.toolTimeoutMs})`, integer(1))
    .option("--max-result-chars <n>", `tool results longer than this are truncated (default ${RUN_DEFAULTS.maxResultChars})`, integer(1))
    .option("--no-feedback-on-invalid", "append no note after an unusable output")
    .addOption(new Option("--history <kind>", "native, or digest (architecture A)").choices(["native", "digest"]))
    .option("--two-phase", "architecture A's two calls per step")
    .option("--system <text>", "the system prompt")
    .option("--spy", "record and print each turn's exact prompt and grammar");
}

export interface FlagValues {
  model?: string;
  vocabulary?: string;
  threads?: number;
  contextSize?: number;
  sequences?: number;
  profile?: ProfileName;
  maxTurns?: number;
  requireTool?: "always" | "never" | "auto";
  gateBudget?: number;
  disabledTools?: string[];
  thoughtMaxLength?: number;
  answerMaxLength?: number;
  maxTokensPerStep?: number;
  temperature?: number;
  seed?: number;
  topK?: number;
  topP?: number;
  minP?: number;
  toolTimeoutMs?: number;
  maxResultChars?: number;
  feedbackOnInvalid?: boolean;
  history?: "native" | "digest";
  twoPhase?: boolean;
  system?: string;
  spy?: boolean;
}

export function modelOptions(flags: FlagValues): Omit<OpenModelOptions, "source"> {
  return { threads: flags.threads, contextSize: flags.contextSize, sequences: flags.sequences };
}

/** The runAgent options the flags set; sampling starts from the model family's preset. */
export function agentOptions(flags: FlagValues, preset: RunAgentOptions["sampling"] & object): Partial<RunAgentOptions> {
  const sampling = { ...preset };
  if (flags.temperature !== undefined) sampling.temperature = flags.temperature;
  if (flags.seed !== undefined) sampling.seed = flags.seed;
  if (flags.topK !== undefined) sampling.topK = flags.topK;
  if (flags.topP !== undefined) sampling.topP = flags.topP;
  if (flags.minP !== undefined) sampling.minP = flags.minP;
  const options: Partial<RunAgentOptions> = {
    profile: flags.profile,
    maxTurns: flags.maxTurns,
    requireTool: flags.requireTool,
    gateBudget: flags.gateBudget,
    disabledTools: flags.disabledTools,
    thoughtMaxLength: flags.thoughtMaxLength,
    answerMaxLength: flags.answerMaxLength,
    maxTokensPerStep: flags.maxTokensPerStep,
    sampling,
    toolTimeoutMs: flags.toolTimeoutMs,
    maxResultChars: flags.maxResultChars,
    feedbackOnInvalid: flags.feedbackOnInvalid,
    history: flags.history,
    twoPhase: flags.twoPhase,
    system: flags.system,
    spy: flags.spy,
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
