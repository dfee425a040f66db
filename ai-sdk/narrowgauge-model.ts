import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4Usage, SharedV4Warning } from "@ai-sdk/provider";
import { guardedStep, replyOfJson, replyOfStep, smallerCaps, stepCaps, StepFailedError, structuredReply, type GuardedStepOptions, type ModelPort, type RunEvent, type Sampling, type StepReply } from "../index.js";
import { chatToolsOf, promptMessages, toolChoiceOf } from "./prompt-messages.js";

/** createNarrowgauge's options: the model, and runAgent's options applied to every step (profile, requireTool, maxTurns, …). */
export interface NarrowgaugeProviderOptions extends Omit<GuardedStepOptions, "messages" | "tools" | "toolChoice" | "session" | "signal" | "onEvent" | "sampling"> {
  model: ModelPort;
  /** The model id the AI SDK reports. Defaults to the model's name. */
  modelId?: string;
  /** Sampling when a call sets no temperature; defaults to the model family's preset. */
  sampling?: Sampling;
}

const usageOf = (tokens: { prompt: number; evaluated: number; generated: number }): LanguageModelV4Usage => ({
  inputTokens: { total: tokens.prompt, noCache: tokens.evaluated, cacheRead: tokens.prompt - tokens.evaluated, cacheWrite: undefined },
  outputTokens: { total: tokens.generated, text: undefined, reasoning: undefined },
});

/** What a step or a JSON reply comes to in the AI SDK's terms. */
interface Answered {
  content: LanguageModelV4Content[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
  narrowgauge: Record<string, unknown>;
}

const FINISH: Record<StepReply["finish"], LanguageModelV4FinishReason["unified"]> = { "tool-calls": "tool-calls", stop: "stop", length: "length", other: "other" };

/** A step or a JSON reply (replyOfStep, replyOfJson) in the AI SDK's terms; a model that could not be run is a StepFailedError. */
function answered(reply: StepReply): Answered {
  if (reply.failure) throw new StepFailedError(reply.failure.code ?? reply.failure.reason, reply.failure.message);
  const content: LanguageModelV4Content[] = reply.reasoning ? [{ type: "reasoning", text: reply.reasoning }] : [];
  if (reply.call) content.push({ type: "tool-call", toolCallId: reply.call.id, toolName: reply.call.name, input: reply.call.arguments });
  if (reply.text !== null) content.push({ type: "text", text: reply.text });
  return { content, finishReason: { unified: FINISH[reply.finish], raw: reply.raw }, usage: usageOf(reply.tokens), narrowgauge: reply.report };
}

/** The settings the AI SDK passes that narrowgauge does not honour, as warnings. */
function warningsFor(call: LanguageModelV4CallOptions): SharedV4Warning[] {
  const ignored = (["stopSequences", "topK", "presencePenalty", "frequencyPenalty"] as const).filter((setting) => call[setting] !== undefined);
  return ignored.map((feature) => ({ type: "unsupported", feature, details: "narrowgauge samples under the step's grammar and ignores it" }) as SharedV4Warning);
}

/**
 * An AI SDK language model (specification v4, `ai` 7) running a
 * narrowgauge model in this process: every `generateText` / `streamText`
 * step is one guarded step (the run state read off the AI SDK's messages,
 * the tools' calls handed back for the AI SDK to execute), and
 * `generateObject` a JSON reply under its schema's grammar. The thought is
 * a reasoning part, streamed live; the call or the answer follows once its
 * checks let it stand. What the guards did is `providerMetadata.narrowgauge`.
 */
export function createNarrowgauge(options: NarrowgaugeProviderOptions): LanguageModelV4 {
  const { model, modelId, sampling: preset, ...stepOptions } = options;
  const samplingFor = (call: LanguageModelV4CallOptions): Sampling | undefined =>
    call.temperature === undefined ? preset : { temperature: call.temperature, ...(call.topP !== undefined ? { topP: call.topP } : {}), ...(call.seed !== undefined ? { seed: call.seed } : {}) };

  async function answer(call: LanguageModelV4CallOptions, onEvent?: (event: RunEvent) => void, cancelled?: AbortSignal): Promise<Answered> {
    const messages = promptMessages(call.prompt);
    const sampling = samplingFor(call);
    const signal = call.abortSignal && cancelled ? AbortSignal.any([call.abortSignal, cancelled]) : (call.abortSignal ?? cancelled);
    const common = { ...(sampling ? { sampling } : {}), ...(signal ? { signal } : {}) };
    const jsonSchema = call.responseFormat?.type === "json" ? ((call.responseFormat.schema as object | undefined) ?? { type: "object" }) : null;
    // With tools, the JSON is the final answer's shape (Output.object beside tools): FinalAnswer's argument in a guarded step.
    const withTools = (call.tools?.length ?? 0) > 0 && call.toolChoice?.type !== "none";
    if (call.responseFormat?.type === "json" && !withTools) {
      return answered(replyOfJson(await structuredReply({ model, messages, schema: (call.responseFormat.schema as object | undefined) ?? { type: "object" }, ...common, ...(call.maxOutputTokens ? { maxTokens: call.maxOutputTokens } : {}) })));
    }
    const declared = chatToolsOf(call.tools);
    const result = await guardedStep({
      ...stepOptions,
      ...common,
      model,
      messages,
      tools: declared,
      toolChoice: toolChoiceOf(call.toolChoice),
      ...(withTools && jsonSchema ? { answerSchema: jsonSchema } : {}),
      // maxOutputTokens fits the step as the server's max_tokens does (stepCaps); the provider's own caps, where smaller, stand.
      ...(call.maxOutputTokens ? smallerCaps(stepOptions, stepCaps(call.maxOutputTokens, declared)) : {}),
      ...(onEvent ? { onEvent } : {}),
    });
    return answered(replyOfStep(result));
  }

  return {
    specificationVersion: "v4",
    provider: "narrowgauge",
    modelId: modelId ?? model.description.name,
    supportedUrls: {},
    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const answered = await answer(call);
      return { content: answered.content, finishReason: answered.finishReason, usage: answered.usage, warnings: warningsFor(call), providerMetadata: { narrowgauge: answered.narrowgauge as never } };
    },
    async doStream(call) {
      // A consumer that cancels the stream aborts the step, and its session is given back.
      const cancel = new AbortController();
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        cancel() {
          cancel.abort();
        },
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: warningsFor(call) });
          let open: string | null = null;
          // Whether the turn now running streamed its thought (a codec whose thought is not JSON text streams none: it is sent whole at the end).
          let streamed = false;
          const close = () => {
            if (open) controller.enqueue({ type: "reasoning-end", id: open });
            open = null;
          };
          const onEvent = (event: RunEvent) => {
            if (event.type === "turn-start") streamed = false;
            if (event.type === "text" && event.field === "thought") {
              streamed = true;
              if (!open) controller.enqueue({ type: "reasoning-start", id: (open = `reasoning-${event.index}`) });
              controller.enqueue({ type: "reasoning-delta", id: open, delta: event.text });
            } else if (event.type === "turn-end") close();
          };
          try {
            const answered = await answer(call, onEvent, cancel.signal);
            if (cancel.signal.aborted) return;
            close();
            for (const part of answered.content) {
              if (part.type === "reasoning" && !streamed) {
                controller.enqueue({ type: "reasoning-start", id: "thought" });
                controller.enqueue({ type: "reasoning-delta", id: "thought", delta: part.text });
                controller.enqueue({ type: "reasoning-end", id: "thought" });
              } else if (part.type === "text") {
                controller.enqueue({ type: "text-start", id: "answer" });
                controller.enqueue({ type: "text-delta", id: "answer", delta: part.text });
                controller.enqueue({ type: "text-end", id: "answer" });
              } else if (part.type === "tool-call") controller.enqueue(part);
            }
            controller.enqueue({ type: "finish", usage: answered.usage, finishReason: answered.finishReason, providerMetadata: { narrowgauge: answered.narrowgauge as never } });
          } catch (error) {
            if (cancel.signal.aborted) return;
            close();
            controller.enqueue({ type: "error", error });
          }
          controller.close();
        },
      });
      return { stream };
    },
  };
}
