import type { ChatHistoryItem, ChatModelFunctions, LlamaContextSequence, LlamaTextJSON } from "node-llama-cpp";
import type { DocumentedFunctions } from "../../../base/chat-history.js";
import { nodeLlamaCpp } from "../../llama-cpp/node-llama-cpp.js";
import type { OpenedModel } from "./open-model.js";

/** One reply of node-llama-cpp's own chat: its text, the first function call it made, and what it cost. */
export interface LlamaChatReply {
  readonly text: string;
  /** The first call the reply made (name, arguments, and the raw text node-llama-cpp read it from), or null. */
  readonly call: { readonly name: string; readonly params: unknown; readonly raw: unknown } | null;
  /** Whether generation stopped on the abort signal. */
  readonly aborted: boolean;
  /** Tokens the sequence holds after the reply, and the tokens evaluated and generated for it. */
  readonly tokens: { readonly context: number; readonly evaluated: number; readonly generated: number };
}

export interface LlamaChatSession {
  /** The model's next reply to the conversation so far, free text, with `functions` it may call in its wrapper's syntax. */
  reply(options: { maxTokens: number; temperature: number; seed?: number; topK?: number; topP?: number; signal?: AbortSignal }): Promise<LlamaChatReply>;
  /** Shows the last reply's call with its result, as node-llama-cpp's history holds a call. */
  answerCall(result: unknown): void;
  /** Frees the chat; the sequence stays the caller's. */
  dispose(): void;
}

/**
 * node-llama-cpp's own function calling on an opened model (LlamaChat with
 * `functions`, one call at a time, the wrapper's own syntax, no grammar of
 * narrowgauge's), the free-text loop most projects run: the probe's peer
 * baseline. Its history stays node-llama-cpp's, inside this adapter.
 */
export async function openLlamaChatSession(opened: Pick<OpenedModel, "chatWrapper">, sequence: LlamaContextSequence, conversation: { system: string; task: string; functions: DocumentedFunctions }): Promise<LlamaChatSession> {
  const { LlamaChat } = await nodeLlamaCpp();
  const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: opened.chatWrapper, autoDisposeSequence: false });
  // The schemas are JSON Schema objects, which node-llama-cpp types narrowly (GbnfJsonSchema) and prints as they are.
  const functions = conversation.functions as ChatModelFunctions;
  let history: ChatHistoryItem[] = [{ type: "system", text: conversation.system }, { type: "user", text: conversation.task }, { type: "model", response: [] }];
  let last: { readonly name: string; readonly params: unknown; readonly raw: LlamaTextJSON } | null = null;
  const meter = sequence.tokenMeter;
  return {
    async reply(options) {
      const before = { input: meter.usedInputTokens, output: meter.usedOutputTokens };
      const response = await chat.generateResponse(history, { functions, documentFunctionParams: true, maxParallelFunctionCalls: 1, ...options, stopOnAbortSignal: true });
      history = response.lastEvaluation.cleanHistory;
      const call = response.functionCalls?.[0];
      last = call ? { name: call.functionName, params: call.params, raw: call.raw } : null;
      return {
        text: response.response,
        call: last,
        aborted: response.metadata.stopReason === "abort",
        tokens: { context: sequence.contextTokens.length, evaluated: meter.usedInputTokens - before.input, generated: meter.usedOutputTokens - before.output },
      };
    },
    answerCall(result) {
      const turn = history.at(-1);
      if (last && turn?.type === "model") turn.response.push({ type: "functionCall", name: last.name, params: last.params, result, rawCall: last.raw });
    },
    dispose: () => chat.dispose({ disposeSequence: false }),
  };
}
