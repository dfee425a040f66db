import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, ChatWrapperGenerateContextStateOptions, ChatWrapperGeneratedContextState, ChatWrapperSettings, LlamaModel, LlamaText } from "node-llama-cpp";
import { ownHistory } from "./chat-renderer-of.js";
import { ChatTemplateError } from "../template/chat-template-error.js";
import { compileChatTemplate } from "../template/python-jinja.js";
import { contentCallFrame } from "../template/content-calls.js";
import type { MessageStyle } from "../template/template-messages.js";
import type { RenderPart } from "../template/template-texts.js";
import { readCallSyntax, readGenerationTail, readMessageStyle, renderPartsWith, renderWith } from "../template/template-style.js";

/** The node-llama-cpp classes a template wrapper is built of (its module in Node, its bundled copy in the page). */
export type TemplateClasses = Pick<typeof import("node-llama-cpp"), "ChatWrapper" | "JinjaTemplateChatWrapper" | "LlamaText" | "SpecialToken" | "SpecialTokensText">;
type NodeLlamaCpp = TemplateClasses;

/** The model's own tokens a template reads, and whether the model's prompts start with BOS. */
export interface TemplateTokens {
  readonly bos: string;
  readonly eos: string;
  readonly addBos: boolean;
  /** Whether a text is one special token of the model's vocabulary (a family that writes calls in its content is known by its tokens: content-calls.ts). */
  readonly hasToken?: (text: string) => boolean;
}

/** A rendering's parts as a prompt: the template's as special-token text, the conversation's texts plain; BOS first where the model starts with it and the template does not write it. */
function toLlamaText(nlc: NodeLlamaCpp, parts: readonly RenderPart[], tokens: TemplateTokens): LlamaText {
  const rendered = parts.map((part) => part.text).join("");
  const values: Array<string | InstanceType<NodeLlamaCpp["SpecialTokensText"]> | InstanceType<NodeLlamaCpp["SpecialToken"]>> = [];
  if (tokens.addBos && (tokens.bos === "" || !rendered.startsWith(tokens.bos))) values.push(new nlc.SpecialToken("BOS"));
  for (const part of parts) values.push(part.special ? new nlc.SpecialTokensText(part.text) : part.text);
  return nlc.LlamaText(values);
}

/**
 * A node-llama-cpp chat wrapper that renders every prompt with the model's
 * own chat template (Python Jinja's semantics, python-jinja.ts), its call
 * syntax read off the template. `source` is the template; a template that
 * cannot be compiled is a ChatTemplateError.
 */
export function templateChatWrapper(nlc: NodeLlamaCpp, source: string, tokens: TemplateTokens, options: { keepGenerationTail?: boolean } = {}): ChatWrapper {
  const template = compileChatTemplate(source);
  const whole = renderWith(template, tokens);
  const read = readMessageStyle(whole);
  // The generation prompt's end that an answered turn drops (Gemma 4's empty thought channel) is left out of every prompt,
  // unless the template's own prompt is asked for (to compare it with node-llama-cpp's rendering).
  const tail = options.keepGenerationTail ? "" : readGenerationTail(whole, read);
  const render = renderWith(template, tokens, tail);
  const renderParts = renderPartsWith(template, tokens, tail);
  // A template that renders no calls, of a family known to write them in its content: written there, where the template shows them.
  const inContent = readCallSyntax(render, read) === null && tokens.hasToken ? contentCallFrame(tokens.hasToken) : null;
  const style: MessageStyle = inContent ? { ...read, callsInContent: inContent } : read;
  const syntax = readCallSyntax(render, style);
  const base = nlc.ChatWrapper.defaultSettings;
  const settings: ChatWrapperSettings = {
    ...base,
    supportsSystemMessages: !style.systemInUser,
    functions: syntax ? { ...base.functions, call: { ...base.functions.call, optionalPrefixSpace: false, prefix: syntax.prefix, paramsPrefix: syntax.paramsPrefix, suffix: syntax.suffix } } : base.functions,
  };
  class TemplateChatWrapper extends nlc.ChatWrapper {
    readonly wrapperName = "Template";
    override readonly settings = settings;
    override generateContextState({ chatHistory, availableFunctions }: ChatWrapperGenerateContextStateOptions): ChatWrapperGeneratedContextState {
      return {
        contextText: toLlamaText(nlc, renderParts(ownHistory(nlc, chatHistory), availableFunctions, style), tokens),
        stopGenerationTriggers: [nlc.LlamaText(new nlc.SpecialToken("EOS")), nlc.LlamaText(new nlc.SpecialToken("EOT")), ...(tokens.eos ? [nlc.LlamaText(tokens.eos)] : [])],
      };
    }
  }
  return new TemplateChatWrapper();
}

/** A plain exchange every chat format renders, and one with a call and its result: the test of whether two wrappers write the same format. */
const PLAIN_EXCHANGE: ChatHistoryItem[] = [
  { type: "system", text: "You are a careful assistant." },
  { type: "user", text: "What is the weather in Paris?" },
  { type: "model", response: ["It is mild."] },
  { type: "user", text: "And tomorrow?" },
  { type: "model", response: [] },
];
const CALL_EXCHANGE: ChatHistoryItem[] = [
  { type: "system", text: "You are a careful assistant." },
  { type: "user", text: "What is the weather in Paris?" },
  { type: "model", response: [{ type: "functionCall", name: "CityWeather", params: { city: "Paris" }, result: { temperature: 18 } }] },
];
const CALL_FUNCTIONS: ChatModelFunctions = { CityWeather: { description: "Current weather for a city.", params: { type: "object", properties: { city: { type: "string" } } } } };

function rendersAlike(a: ChatWrapper, b: ChatWrapper, withCall: boolean): boolean {
  const render = (wrapper: ChatWrapper, chatHistory: ChatHistoryItem[], availableFunctions?: ChatModelFunctions) => wrapper.generateContextState({ chatHistory, availableFunctions }).contextText.toString();
  if (render(a, PLAIN_EXCHANGE) !== render(b, PLAIN_EXCHANGE)) return false;
  return !withCall || render(a, CALL_EXCHANGE, CALL_FUNCTIONS) === render(b, CALL_EXCHANGE, CALL_FUNCTIONS);
}

/** narrowgauge's own models (the built-in tiny one, the trained demo model) learned node-llama-cpp's ChatML prompts, json-v1 byte for byte: their file says so by name. */
const OWN_MODEL = /^narrowgauge\b/;

/**
 * The chat wrapper for an opened model:
 * - a model without a chat template, or one of narrowgauge's own (its
 *   `general.name` starts "narrowgauge"): node-llama-cpp's resolution;
 * - node-llama-cpp's Jinja wrapper, which renders the GGUF's own template,
 *   where it renders a plain exchange as this renderer does (Qwen3);
 * - a specialised wrapper of node-llama-cpp's only where it renders a plain
 *   exchange and a call with its result exactly as the template does;
 * - else the template itself, through templateChatWrapper: node-llama-cpp
 *   falls back by name to another family's wrapper when its Jinja sanity test
 *   fails (Hermes-3 as Llama 3.1, Phi-4-mini as Llama 2), and its specialised
 *   wrappers document tools and write calls in their own syntax.
 * A template this renderer cannot read is a ChatTemplateError, unless
 * node-llama-cpp renders it with its own Jinja wrapper.
 */
export function chooseChatWrapper(nlc: TemplateClasses, resolved: ChatWrapper, model: ModelChatFacts): ChatWrapper {
  const metadata = model.metadata;
  const source = metadata?.tokenizer?.chat_template;
  if (typeof source !== "string" || source.trim() === "" || OWN_MODEL.test(String(metadata?.general?.name ?? ""))) return resolved;
  const isJinja = resolved instanceof nlc.JinjaTemplateChatWrapper;
  // llama.cpp's default: SentencePiece vocabularies start with BOS, byte-level BPE ones only where the file says so.
  const addBos = typeof metadata?.tokenizer?.ggml?.add_bos_token === "boolean" ? metadata.tokenizer.ggml.add_bos_token : metadata?.tokenizer?.ggml?.model === "llama";
  const tokens: TemplateTokens = { bos: model.bos ?? "", eos: model.eos ?? "", addBos: addBos && model.bos !== null, ...(model.hasToken ? { hasToken: model.hasToken } : {}) };
  let own: ChatWrapper;
  try {
    own = templateChatWrapper(nlc, source, tokens, { keepGenerationTail: true });
  } catch (error) {
    // node-llama-cpp's Jinja wrapper renders the same template: no other family's format.
    if (error instanceof ChatTemplateError && isJinja) return resolved;
    throw error;
  }
  // Compared as the template renders (node-llama-cpp's wrapper keeps the whole generation prompt, and is kept as it is where it renders alike).
  return rendersAlike(resolved, own, !isJinja) ? resolved : templateChatWrapper(nlc, source, tokens);
}

/** What a model file says that picks its chat wrapper: its metadata (template, name, tokenizer) and its BOS and EOS texts. */
export interface ModelChatFacts {
  readonly metadata: Record<string, any> | undefined;
  readonly bos: string | null;
  readonly eos: string | null;
  /** Whether a text is one special token of the vocabulary (TemplateTokens.hasToken). */
  readonly hasToken?: (text: string) => boolean;
}

type QuietOptions = { warningLogs: false; fallbackToOtherWrappersOnJinjaError?: false; noJinja?: true };

/**
 * node-llama-cpp's resolution without its console output: where its Jinja
 * wrapper fails its sanity test, it prints the error with a stack (whatever
 * `warningLogs` says) before falling back by name; here the Jinja failure is
 * caught and the resolution run again without Jinja, which is the same
 * fallback, silently (chooseChatWrapper then decides).
 */
export function resolveQuietly<Wrapper>(resolve: (options: QuietOptions) => Wrapper): Wrapper {
  try {
    return resolve({ warningLogs: false, fallbackToOtherWrappersOnJinjaError: false });
  } catch {
    return resolve({ warningLogs: false, noJinja: true });
  }
}

/** chooseChatWrapper for a model node-llama-cpp opened. */
export function resolveModelChatWrapper(nlc: typeof import("node-llama-cpp"), model: LlamaModel): ChatWrapper {
  return chooseChatWrapper(nlc, resolveQuietly((options) => nlc.resolveChatWrapper(model, options)), {
    metadata: model.fileInfo.metadata as Record<string, any> | undefined,
    bos: model.tokens.bosString,
    eos: model.tokens.eosString,
    hasToken: (text) => model.tokenize(text, true).length === 1 && model.tokenize(text, false).length > 1,
  });
}
