import { chatRendererOf } from "../../llama-cpp/chat-renderer-of.js";
import { ChatMLChatWrapper, type ChatWrapper, type LlamaText } from "node-llama-cpp";
import type { GenerationStopReason } from "../../engine/model-port.js";
import type { GenerateRequest, ModelPort, ModelSession, PortGeneration } from "../../engine/model-port.js";
import { GREEDY_PRESET } from "../../engine/sampling-presets.js";
import { serialSession } from "../../engine/serial-session.js";
import type { Static } from "@sinclair/typebox";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";
import { FINAL_ANSWER, type ToolSchemaSpec } from "../../../schemas/step-schema.js";
import { commonPrefixLength } from "../../engine/common-prefix.js";

/** A scripted step typed by the tools: a misspelt tool name or a wrong argument type does not compile. */
export type ScriptedStep<Tools extends readonly ToolSchemaSpec[]> = {
  thought?: string;
  call:
    | { [Index in keyof Tools]: Tools[Index] extends ToolSchemaSpec<infer Name, infer Params> ? { tool: Name; args: Static<Params> } : never }[number]
    | { tool: typeof FINAL_ANSWER; answer: string };
};

/**
 * One scripted model output: a step object (serialised as compact JSON, in
 * its own key order), raw text (to simulate malformed output), an explicit
 * generation (to simulate truncation), or a function of the request. Given
 * the tools (`scriptedModel(steps, { tools })`), steps are typed by them;
 * without, any object is accepted.
 */
export type ScriptedOutput<Tools extends readonly ToolSchemaSpec[] | undefined = undefined> =
  | ScriptedObject<Tools>
  | string
  | { raw: string; stopReason: GenerationStopReason }
  | ((request: GenerateRequest) => ScriptedObject<Tools> | string);
type ScriptedObject<Tools> = Tools extends readonly ToolSchemaSpec[] ? ScriptedStep<Tools> : Record<string, unknown>;

/** A scripted step calls a tool the script was not given. */
export class ScriptedToolError extends NarrowgaugeError {
  readonly code = "scripted-unknown-tool";
  readonly endsRun = true;
  constructor(readonly tool: string, readonly tools: readonly string[]) {
    super(`unknown tool ${tool}; the tools are ${tools.join(", ")}`);
  }
}

export class ScriptExhaustedError extends NarrowgaugeError {
  readonly code = "script-exhausted";
  readonly endsRun = true;
  constructor(readonly turn: number, readonly length: number, readonly kind: "step" | "judgement" = "step") {
    super(`the scripted model has ${length} ${kind} outputs; turn ${turn} asked for one more`);
  }
}

export interface ScriptedModelOptions {
  /** The chat format the history is rendered in. Defaults to ChatML. */
  chatWrapper?: ChatWrapper;
  /** Milliseconds to wait before answering, to test aborts. Defaults to 0. */
  delayMs?: number;
  /**
   * Outputs for the answer gate's judgement calls (freshness, verdict), in
   * order, e.g. `{ needs_current_information: true }` or
   * `{ verdict: "research", query: "Paris weather" }`. Kept apart from the
   * steps so a script reads as the agent's turns.
   */
  judgements?: readonly ScriptedOutput[];
  /** The context, in code points (the scripted model's tokens), that a run may fill. Defaults to unbounded. */
  contextSize?: number;
}

/** Options naming the tools, so steps are typed and checked by them. */
export interface TypedScriptOptions<Tools extends readonly ToolSchemaSpec[]> extends ScriptedModelOptions {
  /** The tools the run will have: steps are typed by them, and a step naming another tool fails at once. */
  tools: Tools;
}

export interface ScriptedModel extends ModelPort {
  /** Every request the loop made, in order: prompts (as text), grammars, visible tools. */
  readonly requests: Array<GenerateRequest & { promptText: string }>;
}

/**
 * A model for unit-testing agents without a GGUF: it returns the given
 * outputs in order. The loop parses and validates them exactly as it does a
 * real model's text, so a scripted step the grammar would forbid still fails
 * validation. Prompts are rendered by a real chat wrapper and "tokenized" as
 * code points, so prefix sharing and the spy work as with a real model.
 */
export function scriptedModel<const Tools extends readonly ToolSchemaSpec[]>(outputs: readonly ScriptedOutput<Tools>[], options: TypedScriptOptions<Tools>): ScriptedModel;
export function scriptedModel(outputs: readonly ScriptedOutput[], options?: ScriptedModelOptions): ScriptedModel;
export function scriptedModel(outputs: readonly ScriptedOutput<readonly ToolSchemaSpec[]>[] | readonly ScriptedOutput[], options: ScriptedModelOptions & { tools?: readonly ToolSchemaSpec[] } = {}): ScriptedModel {
  if (options.tools) checkScriptTools(outputs, options.tools.map((tool) => tool.name));
  const chatWrapper = options.chatWrapper ?? new ChatMLChatWrapper();
  const requests: ScriptedModel["requests"] = [];
  const judgements = options.judgements ?? [];
  let steps = 0;
  let judged = 0;

  /**
   * A session's "KV cache" is the last prompt it saw, so a run's records show
   * what a real model would reuse; it checks the context as every port's
   * session does.
   */
  const session = (): ModelSession => {
    const cache = { prompt: [] as readonly number[] };
    return serialSession({ item: cache, release: () => {} }, options.contextSize ?? null, (cached, request) => {
      const common = commonPrefixLength(cached.prompt, request.prompt, Math.min(cached.prompt.length, request.prompt.length - 1));
      cached.prompt = request.prompt;
      const result = answer(request, { tokens: request.prompt.length, evaluated: request.prompt.length - common });
      return { result, settled: result };
    });
  };

  async function answer(request: GenerateRequest, prompt: PortGeneration["prompt"]): Promise<PortGeneration> {
    requests.push({ ...request, promptText: String.fromCodePoint(...request.prompt) });
    if (options.delayMs) await abortableDelay(options.delayMs, request.signal);
    if (request.signal?.aborted) return { text: "", stopReason: "aborted", generatedTokens: 0, prompt, ms: { prompt: 0, sampling: 0 } };

    const isJudgement = request.purpose?.kind === "judgement";
    const next = isJudgement ? judgements[judged++] : outputs[steps++];
    if (next === undefined) throw new ScriptExhaustedError(request.purpose?.turn ?? 0, isJudgement ? judgements.length : outputs.length, isJudgement ? "judgement" : "step");
    const output = typeof next === "function" ? next(request) : next;
    const { text, stopReason } =
      typeof output === "string"
        ? { text: output, stopReason: "grammar-complete" as const }
        : "raw" in output && "stopReason" in output && typeof output.raw === "string"
          ? { text: output.raw, stopReason: output.stopReason as GenerationStopReason }
          : { text: writeStep(request, output), stopReason: "grammar-complete" as const };
    // One code point per token, as the prompts are tokenized: an output longer than the budget is cut there, as a model's would be.
    const tokens = Array.from(text, (character) => character.codePointAt(0)!).slice(0, Math.max(0, request.maxTokens));
    const written = String.fromCodePoint(...tokens);
    for (const character of written) request.onText?.(character);
    return { text: written, stopReason: written.length < text.length ? "max-tokens" : stopReason, generatedTokens: tokens.length, prompt, ms: { prompt: 0, sampling: 0 }, tokens };
  }

  const shared = session();
  return {
    requests,
    chatRenderer: chatRendererOf(chatWrapper),
    description: {
      name: "scripted", file: null, wrapper: chatWrapper.wrapperName, threads: null, builtIn: false, parameters: null, sampling: GREEDY_PRESET,
      contextSize: options.contextSize ?? null, sessions: null,
    },
    tokenize: (text: LlamaText) => Array.from(text.toString(), (character) => character.codePointAt(0)!),
    detokenizeForSpy: (tokens) => String.fromCodePoint(...tokens),
    openSession: async () => session(),
    generate: (request) => shared.generate(request),
  };
}

/** A scripted object as the run's codec writes a step (a judgement, or a run without a codec: compact JSON). */
function writeStep(request: GenerateRequest, output: object): string {
  const encode = request.purpose?.kind === "step" ? request.purpose.encodeStep : undefined;
  return encode ? encode(output as Parameters<typeof encode>[0]) : JSON.stringify(output);
}

/** A step naming a tool the script was not given fails when the script is made, with a plain message. */
function checkScriptTools(outputs: readonly unknown[], tools: readonly string[]): void {
  for (const output of outputs) {
    const tool = (output as { call?: { tool?: unknown } } | null)?.call?.tool;
    if (typeof tool === "string" && tool !== FINAL_ANSWER && !tools.includes(tool)) throw new ScriptedToolError(tool, tools);
  }
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
