import type { ChatHistoryItem, ChatWrapper, ChatWrapperGenerateContextStateOptions, ChatWrapperGeneratedContextState, ChatWrapperSettings, LlamaModel, LlamaText } from "node-llama-cpp";
import { ChatTemplateError } from "../template/chat-template-error.js";
import { compileChatTemplate } from "../template/python-jinja.js";
import { templateConversation, type MessageStyle } from "../template/template-messages.js";
import { readCallSyntax, readMessageStyle, renderWith } from "../template/template-style.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/** The model's own tokens a template reads, and whether the model's prompts start with BOS. */
export interface TemplateTokens {
  readonly bos: string;
  readonly eos: string;
  readonly addBos: boolean;
}

/**
 * The rendered text as a prompt: the conversation's own texts (contents,
 * arguments, results, found in order) as plain text, so a user's "<|im_end|>"
 * stays characters; everything the template wrote as special-token text.
 */
function toLlamaText(nlc: NodeLlamaCpp, rendered: string, texts: readonly string[], tokens: TemplateTokens): LlamaText {
  const values: Array<string | InstanceType<NodeLlamaCpp["SpecialTokensText"]> | InstanceType<NodeLlamaCpp["SpecialToken"]>> = [];
  if (tokens.addBos && (tokens.bos === "" || !rendered.startsWith(tokens.bos))) values.push(new nlc.SpecialToken("BOS"));
  let cursor = 0;
  for (const text of texts) {
    const at = rendered.indexOf(text, cursor);
    if (at < 0) continue;
    if (at > cursor) values.push(new nlc.SpecialTokensText(rendered.slice(cursor, at)));
    values.push(text);
    cursor = at + text.length;
  }
  if (cursor < rendered.length) values.push(new nlc.SpecialTokensText(rendered.slice(cursor)));
  return nlc.LlamaText(values);
}

/**
 * A node-llama-cpp chat wrapper that renders every prompt with the model's
 * own chat template (Python Jinja's semantics, python-jinja.ts), its call
 * syntax read off the template. `source` is the template; a template that
 * cannot be compiled is a ChatTemplateError.
 */
export function templateChatWrapper(nlc: NodeLlamaCpp, source: string, tokens: TemplateTokens): ChatWrapper {
  const render = renderWith(compileChatTemplate(source), tokens);
  const style: MessageStyle = readMessageStyle(render);
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
      const conversation = templateConversation(chatHistory, availableFunctions, style);
      const rendered = render(chatHistory, availableFunctions, style);
      return {
        contextText: toLlamaText(nlc, rendered, conversation.texts, tokens),
        stopGenerationTriggers: [nlc.LlamaText(new nlc.SpecialToken("EOS")), nlc.LlamaText(new nlc.SpecialToken("EOT")), ...(tokens.eos ? [nlc.LlamaText(tokens.eos)] : [])],
      };
    }
  }
  return new TemplateChatWrapper();
}

/** A plain exchange every chat format renders: the test of whether two wrappers write the same format. */
const PLAIN_EXCHANGE: ChatHistoryItem[] = [
  { type: "system", text: "You are a careful assistant." },
  { type: "user", text: "What is the weather in Paris?" },
  { type: "model", response: ["It is mild."] },
  { type: "user", text: "And tomorrow?" },
  { type: "model", response: [] },
];

const rendersAlike = (a: ChatWrapper, b: ChatWrapper) => a.generateContextState({ chatHistory: PLAIN_EXCHANGE }).contextText.toString() === b.generateContextState({ chatHistory: PLAIN_EXCHANGE }).contextText.toString();

/**
 * The chat wrapper for an opened model. node-llama-cpp's own resolution
 * where it renders what the model's chat template renders (its Jinja
 * wrapper, or a specialised one equal to the template on a plain exchange:
 * the demo model's ChatML); the template itself, through
 * templateChatWrapper, where node-llama-cpp falls back to another family's
 * format (its Jinja sanity test fails on Hermes-3 and Phi-4-mini, and it
 * picks a wrapper by name). A model without a template gets node-llama-cpp's;
 * a template this renderer cannot read is a ChatTemplateError, unless
 * node-llama-cpp renders it with its own Jinja wrapper.
 */
export function resolveModelChatWrapper(nlc: NodeLlamaCpp, model: LlamaModel): ChatWrapper {
  const resolved = nlc.resolveChatWrapper(model);
  const source = model.fileInfo.metadata?.tokenizer?.chat_template;
  if (typeof source !== "string" || source.trim() === "") return resolved;
  let own: ChatWrapper;
  try {
    own = templateChatWrapper(nlc, source, { bos: model.tokens.bosString ?? "", eos: model.tokens.eosString ?? "", addBos: model.tokens.shouldPrependBosToken });
  } catch (error) {
    // node-llama-cpp's Jinja wrapper renders the same template: no other family's format.
    if (error instanceof ChatTemplateError && resolved instanceof nlc.JinjaTemplateChatWrapper) return resolved;
    throw error;
  }
  return rendersAlike(resolved, own) ? resolved : own;
}
