import { suggestName } from "../../../base/closest-name.js";
import { ConfigurationError } from "../../../base/configuration-error.js";
import type { Guard } from "../../../guards/guard.js";
import { PROFILE_NAMES, type GuardProfile, type ProfileName } from "../../../guards/profiles.js";
import { STEP_DEFAULTS } from "../../../schemas/step-schema.js";
import { GBNF_REPETITION_LIMIT, GBNF_STRING_LIMIT } from "../../../schemas/gbnf-compiler.js";
import { JSON_VALUE_DEPTH, MAX_JSON_VALUE_DEPTH } from "../../../schemas/keywords/json-value.js";
import { CODEC_NAMES, type CodecName } from "../../codec/step-codec.js";
import type { ModelPort } from "../../engine/model-port.js";
import type { Sampling } from "../../engine/sampling.js";
import type { ToolsInput } from "../../tools/foreign/foreign-tools.js";
import type { Approve } from "../../tools/tool-approval.js";
import { boolean, choice, integer, names, number, share, value, type OptionsOf, type WithDefault } from "./option-kinds.js";
import type { RunEvent } from "../run-types.js";
import type { TurnStrategy } from "../turn-strategy.js";

/**
 * The sampling fields, each a flag of its own on the command line
 * (`--temperature`, `--seed`, `--top-k`, `--top-p`, `--min-p`); the model
 * family's preset fills the rest.
 */
export const SAMPLING_FIELDS = {
  temperature: number("sampling temperature; 0 is greedy", "number", { min: 0 }),
  seed: number("sampling seed, used when temperature > 0", "integer", { min: 0 }),
  topK: number("top-k sampling", "integer", { min: 1 }),
  topP: number("top-p (nucleus) sampling", "number", { min: 0, max: 1 }),
  minP: number("min-p sampling", "number", { min: 0, max: 1 }),
} as const;

function checkSampling(given: unknown, name: string): Sampling {
  if (given === null || typeof given !== "object" || Array.isArray(given)) throw new ConfigurationError(name, `${name} must be an object of sampling fields`);
  for (const [field, fieldValue] of Object.entries(given)) {
    const declaration = SAMPLING_FIELDS[field as keyof typeof SAMPLING_FIELDS];
    if (!declaration) throw new ConfigurationError(`${name}.${field}`, `${name}.${field} is not a sampling field; ${suggestName(field, Object.keys(SAMPLING_FIELDS))}`);
    if (fieldValue !== undefined) declaration.check!(fieldValue, `${name}.${field}`);
  }
  return given as Sampling;
}

function checkText(given: unknown, name: string): string {
  if (typeof given !== "string") throw new ConfigurationError(name, `${name} must be a string: ${String(given)}`);
  return given;
}

function checkApprove(given: unknown, name: string): Approve {
  if (typeof given !== "function") throw new ConfigurationError(name, `${name} must be a function (call) => "yes" | "no" | "always"`);
  return given as Approve;
}

function checkCodec(given: unknown, name: string): CodecName {
  if (!CODEC_NAMES.includes(given as CodecName)) throw new ConfigurationError(name, `${name} must be one of ${CODEC_NAMES.map((codec) => JSON.stringify(codec)).join(", ")}: ${JSON.stringify(given)}`);
  return given as CodecName;
}

/**
 * runAgent's options, each declared once: its type, default, range and one
 * line of documentation. The options type, the resolved configuration, its
 * validation, the command line's flags and the options table in the docs
 * are all derived from this table.
 */
export const RUN_OPTIONS = {
  model: value<ModelPort>("the model: `await loadModel(…)`, `connectServer(…)`, `scriptedModel(…)` from narrowgauge/testing, or your own ModelPort", "required", { required: true }),
  tools: value<ToolsInput>("the tools: made with defineTool (params in TypeBox, JSON Schema of any dialect, zod 4, or a Standard Schema such as ArkType), OpenAI function tools with a `run` handler, openai-node runnable tools (`runTools`, `zodFunction`), or a record of AI SDK `tool()`s", "required", { required: true }),
  task: value<string>("the question or instruction", "required", { required: true }),
  system: value<string, string | undefined>("system prompt; the tools' documentation follows it", "the codec's: DEFAULT_SYSTEM_PROMPT for a JSON step, NATIVE_SYSTEM_PROMPT for a native one", {
    check: checkText,
    flag: { shape: "value", placeholder: "text" },
  }),
  codec: value<CodecName, CodecName | undefined>(
    "how a step is written: native (the model family's own call syntax, read off its chat wrapper), json (the JSON step, shown as written), or json-v1 (the JSON step in the wrapper's function syntax, as the trained demo model learned it)",
    "native where the chat format has a call syntax of its own; json-v1 on ChatML; json otherwise",
    { check: checkCodec, flag: { shape: "value", placeholder: "name", choices: CODEC_NAMES } },
  ),
  answerSchema: value<object>(
    "the final answer's schema (JSON Schema, TypeBox or zod 4): FinalAnswer's argument is then a value of it, compiled like a tool's parameters, its numbers held to grounded ones and, inside an object whose subject field holds a subject, to that subject's (G4); the result's `output` is the value, `answer` its JSON text",
    "none: the answer is text",
  ),
  maxTurns: integer("turn budget", { min: 1 }, 8),
  profile: value<ProfileName | GuardProfile, ProfileName | GuardProfile | undefined>("the guard profile (see docs/guards.md): sub1b, mid, large or none; from code, also a custom GuardProfile object", "by the model's parameter count; sub1b when unknown", {
    flag: { shape: "value", placeholder: "name", choices: PROFILE_NAMES },
  }),
  guards: value<readonly Guard[]>("your own guards, each run after the built-in guards of its stage", "none", { default: [] }) as WithDefault<readonly Guard[]>,
  requireTool: choice("whether the answer must rest on a tool result: always (FinalAnswer waits for a successful call), never, or auto (one constrained question decides)", ["always", "never", "auto"], "always"),
  inferSubjects: boolean(
    "a tool that declares no `subjects` has them read off its schema and the task: an enumerable string parameter whose values the task names is narrowed to them (G1), each named value is looked up before the answer (G10), and numbers keep the subject they came from (G4)",
    true,
  ),
  gateBudget: integer("nudges the answer gate may send per question", { min: 0 }, 2),
  approve: value<Approve, Approve | undefined>(
    "asked, with the tool and its arguments, before each call of a tool that needs approval (`needsApproval`, or annotations that read as destructive: every destructive MCP tool allowDestructive does not name): yes, no (the model is told, and the tool leaves the union for the rest of the question) or always (that tool, for the rest of the run or conversation); anything else, or a throw, is no; the run's signal ends the wait",
    "none: tools that need approval are switched off (documented, never offered)",
    { check: checkApprove },
  ),
  disabledTools: names("tools documented to the model but never offered (unless the tools' share of the context runs out: then they are the first left out)"),
  toolShare: share(
    "the share of the context the first prompt (system text, tool documentation, task) may take; where every tool would take more, each is documented by its first sentence (one that takes more alone, by its parameters' names and types), and if that is still too much the prompt shows only the tools the task's words match best (the rest recorded with why, in the result's `tools`)",
    0.5,
  ),
  thoughtMaxLength: integer("cap on the thought, in code points", { min: 0, max: GBNF_REPETITION_LIMIT }, STEP_DEFAULTS.thoughtMaxLength),
  answerMaxLength: integer("cap on the final answer, in code points", { min: 1, max: GBNF_REPETITION_LIMIT }, STEP_DEFAULTS.answerMaxLength),
  defaultMaxLength: number(
    "cap on a tool argument string whose schema sets no maxLength, in code points (a small model loops inside free text; the cap stops it)",
    "integer",
    { min: 0, max: GBNF_STRING_LIMIT },
    "what the step's room allows: a code point for every two tokens the step may sample (maxTokensPerStep, or what the context has left if less), in steps of 64, at least 256, at most 4000",
  ),
  defaultMaxItems: integer("cap on a tool argument array (and a map's entries) whose schema sets no maxItems (maxProperties)", { min: 0, max: GBNF_REPETITION_LIMIT }, 16),
  freeValueDepth: integer("how deep a tool argument with no type (any JSON value) may nest: arrays and objects in arrays and objects", { min: 0, max: MAX_JSON_VALUE_DEPTH }, JSON_VALUE_DEPTH),
  maxTokensPerStep: integer("cap on tokens sampled per step (a step may use less: what the context has left after its prompt)", { min: 1 }, 1024),
  stepReserve: integer(
    "tokens of the context kept for a step: a turn that is not the last needs room for its step and then the final's; where the prompt leaves less, the oldest earlier exchanges of a conversation leave it (whole; never the system prompt, the tools or the current question), then the final is forced with its free text cut to fit, and tool results are cut to keep the final's room",
    { min: 1 },
    128,
  ),
  jumpForward: choice(
    "text the grammar forces (a step's skeleton between its free fields) is written without sampling: batched (one evaluation per forced span), unbatched (the same tokens, one evaluation each, for measuring) or off (every token sampled, as the model would tokenize it)",
    ["batched", "unbatched", "off"],
    "batched",
  ),
  sampling: value<Sampling, Sampling | undefined>("how to sample (fields: temperature, seed, topK, topP, minP); pass GREEDY for greedy", "the model family's preset (`model.description.sampling`): greedy unless its authors say otherwise", { check: checkSampling }),
  toolTimeoutMs: integer("per-call tool timeout in ms, unless the tool sets its own", { min: 1 }, 10_000),
  maxResultChars: integer("tool results whose JSON is longer are truncated with a marker", { min: 1 }, 2000),
  feedbackOnInvalid: boolean("append a one-line note after an unusable output (without it the next prompt may repeat, and G9 escalates)", true),
  spy: boolean("record each turn's exact prompt (special tokens visible) and grammar", false),
  strategy: value<Partial<TurnStrategy>>("how a turn is shown and sampled, for measuring other architectures (the probe's A)", "native history, one call per step"),
  signal: value<AbortSignal>("aborts the run", "none"),
  onEvent: value<(event: RunEvent) => void>("receives the run's events as they happen", "none"),
} as const;

/** runAgent's options, as RUN_OPTIONS declares them. */
export interface RunAgentOptions extends OptionsOf<typeof RUN_OPTIONS> {}
