import type { DocumentedFunctions, HistoryItem } from "../../base/chat-history.js";
import { commonPrefix } from "../../base/shared-text.js";
import { stepStart } from "../../base/step-start.js";
import { CALL_NOTATIONS, NOTATIONS, writeValue } from "../../base/value-notation.js";
import { ChatTemplateError } from "./chat-template-error.js";
import type { ChatTemplate, TemplateVariables } from "./python-jinja.js";
import { markTexts, splitRendered, type RenderPart } from "./template-texts.js";
import { templateConversation, type MessageStyle, type TemplateConversation } from "./template-messages.js";

const EXAMPLE_ARGS = { alpha: "x y" };
/** The example's arguments in each notation a template may write them in (JSON spaced as Python's json.dumps, compact, Gemma's, Python's keyword arguments). */
const ARGS_TEXTS = CALL_NOTATIONS.map((notation) => writeValue(EXAMPLE_ARGS, NOTATIONS[notation]));
const EXAMPLE_FUNCTIONS: DocumentedFunctions = { ProbeTool: { description: "A probe.", params: { type: "object", properties: { alpha: { type: "string" } } } } };
const EXAMPLE_TASK = "Task.";
const EXAMPLE_THOUGHT = "Probe thought.";
const EXAMPLE_START: HistoryItem[] = [
  { type: "system", text: "System." },
  { type: "user", text: EXAMPLE_TASK },
];
const exampleCall = (calls: number): HistoryItem[] => [...EXAMPLE_START, { type: "model", response: Array.from({ length: calls }, () => ({ type: "functionCall" as const, name: "ProbeTool", params: EXAMPLE_ARGS, result: "RESULT" })) }];

/**
 * The call syntax a template writes, read off its text: `prefix NAME
 * paramsPrefix ARGS suffix`, ARGS in a notation it knows, for the chat wrapper's
 * function settings (call-frame.ts reads the exact frame off the rendered
 * prompt, cutting where a special token begins). Null where the template
 * writes no call, or writes its arguments in no notation narrowgauge knows
 * (value-notation.ts).
 */
export function readCallSyntax(render: TemplateRender, style: MessageStyle): { prefix: string; paramsPrefix: string; suffix: string } | null {
  const start = renders(render, [...EXAMPLE_START, { type: "model", response: [] }], style);
  const call = renders(render, exampleCall(1), style);
  const plain = renders(render, [...EXAMPLE_START, { type: "model", response: ["ZZZ"] }, { type: "user", text: "YYY" }, { type: "model", response: [] }], style);
  if (start === null || call === null || plain === null) return null;
  const stepAt = stepStart(start, call, EXAMPLE_TASK);
  if (stepAt === null) return null;
  const step = call.slice(stepAt);
  const nameAt = step.indexOf("ProbeTool");
  if (nameAt < 0) return null;
  const nameEnd = nameAt + "ProbeTool".length;
  const found = ARGS_TEXTS.map((text) => ({ text, at: step.indexOf(text, nameEnd) })).filter(({ at }) => at >= 0).sort((a, b) => a.at - b.at)[0];
  if (!found) return null;
  const afterArgs = step.slice(found.at + found.text.length, Math.max(found.at + found.text.length, step.indexOf("RESULT")));
  // Where the call ends: where the text a turn ends with (after "ZZZ", up to the next turn's "YYY") begins.
  if (!plain.includes("ZZZ") || !plain.includes("YYY", plain.indexOf("ZZZ"))) return null;
  const turnEnd = plain.slice(plain.indexOf("ZZZ") + 3, plain.indexOf("YYY", plain.indexOf("ZZZ")));
  let end = afterArgs.length;
  // At least the turn end's first tag (`<|im_end|>`, not `<`, which Gemma 4's `<tool_call|>` begins with too).
  const tagEnd = turnEnd.search(/[>\]\n]/);
  for (let length = turnEnd.length; length > (tagEnd < 0 ? turnEnd.length - 1 : tagEnd); length--) {
    const at = afterArgs.indexOf(turnEnd.slice(0, length));
    if (at >= 0) {
      end = at;
      break;
    }
  }
  // Nor past the result's opening, where a template names the tool again (gpt-oss's `<|start|>functions.ProbeTool`, Gemma 4's `<|tool_response>response:ProbeTool`): at its tag.
  const named = afterArgs.indexOf("ProbeTool");
  if (named >= 0) end = Math.min(end, Math.max(0, afterArgs.lastIndexOf("<", named)));
  return { prefix: step.slice(0, nameAt), paramsPrefix: step.slice(nameEnd, found.at), suffix: afterArgs.slice(0, end) };
}

export interface TemplateRender {
  (history: readonly HistoryItem[], functions: DocumentedFunctions | undefined, style: MessageStyle): string;
}

function renders(render: TemplateRender, history: readonly HistoryItem[], style: MessageStyle): string | null {
  try {
    return render(history, EXAMPLE_FUNCTIONS, style);
  } catch (error) {
    if (error instanceof ChatTemplateError) return null;
    throw error;
  }
}

/**
 * How a template wants messages, read off renders of example conversations:
 * a template that refuses a system role gets the system text in the first
 * user message; one that refuses two user messages in a row gets them as
 * one; one that writes calls only with their arguments as a JSON
 * string gets them so; one that refuses calls without ids gets ids.
 */
export function readMessageStyle(render: TemplateRender): MessageStyle {
  const base: MessageStyle = { stringArguments: false, callIds: false, systemInUser: false, mergeUsers: false, thoughtAsReasoning: false, callsWithoutContent: false, callsInContent: null };
  // A template that refuses the system role renders once the system text moves into the user turn.
  const startHistory: HistoryItem[] = [...EXAMPLE_START, { type: "model", response: [] }];
  const systemInUser = renders(render, startHistory, base) === null && renders(render, startHistory, { ...base, systemInUser: true }) !== null;
  const twoUsers: HistoryItem[] = [...EXAMPLE_START, { type: "user", text: "Note." }, { type: "model", response: [] }];
  const refusesTwoUsers = renders(render, twoUsers, { ...base, systemInUser }) === null && renders(render, twoUsers, { ...base, systemInUser, mergeUsers: true }) !== null;
  const style = { ...base, systemInUser, mergeUsers: refusesTwoUsers };
  // What templates test a call for: its arguments as an object or a string, an id or none, its content a string or none.
  const shapes: MessageStyle[] = [style, { ...style, stringArguments: true }, { ...style, callIds: true }, { ...style, stringArguments: true, callIds: true }];
  const candidates = [...shapes, ...shapes.map((shape) => ({ ...shape, callsWithoutContent: true }))];
  const writesArgs = (text: string | null) => text !== null && ARGS_TEXTS.some((args) => text.includes(args));
  const rendered = candidates.map((candidate) => ({ candidate, text: renders(render, exampleCall(1), candidate) }));
  const chosen = (rendered.find(({ text }) => writesArgs(text)) ?? rendered.find(({ text }) => text !== null))?.candidate ?? style;
  return { ...chosen, thoughtAsReasoning: thoughtBeforeCall(render, { ...chosen, thoughtAsReasoning: true }) && !thoughtBeforeCall(render, chosen) };
}

/** Whether a call's text is rendered before the call's name (after the task), in a style. */
function thoughtBeforeCall(render: TemplateRender, style: MessageStyle): boolean {
  const text = renders(render, [...EXAMPLE_START, { type: "model", response: [EXAMPLE_THOUGHT, { type: "functionCall", name: "ProbeTool", params: EXAMPLE_ARGS, result: "RESULT" }] }], style);
  if (text === null) return false;
  const thoughtAt = text.indexOf(EXAMPLE_THOUGHT, text.lastIndexOf(EXAMPLE_TASK));
  return thoughtAt >= 0 && text.indexOf("ProbeTool", thoughtAt) >= 0 && thoughtAt < text.indexOf("ProbeTool", text.lastIndexOf(EXAMPLE_TASK));
}

/** The template's variables for a conversation. */
function templateVariables(conversation: TemplateConversation, tokens: { bos: string; eos: string }, marked?: { messages: unknown[]; tools: unknown[] | undefined }): TemplateVariables {
  const tools = marked ? marked.tools : conversation.tools;
  return { messages: marked ? marked.messages : conversation.messages, ...(tools ? { tools } : {}), add_generation_prompt: conversation.addGenerationPrompt, bos_token: tokens.bos, eos_token: tokens.eos, enable_thinking: false };
}

/**
 * The end of the generation prompt after a user message that the same turn,
 * once answered, does not show (Gemma 4's empty thought channel
 * `<|channel>thought\n<channel|>`, DeepSeek-R1's `<think>\n</think>`): ""
 * for most templates. `render` renders without leaving it out.
 */
export function readGenerationTail(render: TemplateRender, style: MessageStyle): string {
  const prompt = renders(render, [...EXAMPLE_START, { type: "model", response: [] }], style);
  const text = renders(render, [...EXAMPLE_START, { type: "model", response: ["ZZZ"] }, { type: "user", text: "YYY" }, { type: "model", response: [] }], style);
  const call = renders(render, exampleCall(1), style);
  if (prompt === null || text === null || call === null) return "";
  const common = commonPrefix(prompt, text);
  // The answered turn keeps everything up to the task (Mistral Nemo moves its system text: no dropped tail) and goes on with its text.
  if (common < prompt.lastIndexOf(EXAMPLE_TASK) + EXAMPLE_TASK.length || !text.startsWith("ZZZ", common)) return "";
  const tail = prompt.slice(common);
  // Dropped too where the turn holds a call its result follows (a native step's next prompt), or it is kept.
  return tail !== "" && call.startsWith(prompt.slice(0, common)) && !call.startsWith(tail, common) ? tail : "";
}

/**
 * Whether a conversation's prompt ends with the generation prompt after a
 * user message, `tail` included: then the tail is left out, so the model
 * writes its turn as the next prompt will show it (the template's own
 * answered turn), not after text that prompt drops.
 */
function endsWithTail(conversation: TemplateConversation, rendered: string, tail: string): boolean {
  return tail !== "" && conversation.addGenerationPrompt && conversation.trailingText === "" && conversation.messages.at(-1)?.role === "user" && rendered.endsWith(tail);
}

/** The template's text for a conversation, rendered with the given template and model tokens, less the generation prompt's `tail` where the turn drops it (readGenerationTail). */
export function renderWith(template: ChatTemplate, tokens: { bos: string; eos: string }, tail = ""): TemplateRender {
  return (history, functions, style) => {
    const conversation = templateConversation(history, functions, style);
    const rendered = template.render(templateVariables(conversation, tokens));
    return (endsWithTail(conversation, rendered, tail) ? rendered.slice(0, -tail.length) : rendered) + conversation.trailingText;
  };
}

/**
 * The template's text for a conversation in parts: what the template wrote
 * (special-token text) and the conversation's own texts (plain), told apart
 * by a second rendering with the texts as markers (template-texts.ts). Where
 * the two renderings do not line up, each text is found in order instead.
 */
export function renderPartsWith(template: ChatTemplate, tokens: { bos: string; eos: string }, tail = ""): (history: readonly HistoryItem[], functions: DocumentedFunctions | undefined, style: MessageStyle) => RenderPart[] {
  return (history, functions, style) => {
    const conversation = templateConversation(history, functions, style);
    const rendered = template.render(templateVariables(conversation, tokens));
    const real = endsWithTail(conversation, rendered, tail) ? rendered.slice(0, -tail.length) : rendered;
    const marked = markTexts({ messages: conversation.messages, ...(conversation.tools ? { tools: conversation.tools } : {}) }, conversation.pieces);
    let parts: RenderPart[] | null = null;
    if (marked) {
      const markedText = template.render(templateVariables(conversation, tokens, marked));
      // The tail is the template's own text: the marked rendering ends with it too.
      parts = splitRendered(real, real !== rendered ? markedText.slice(0, -tail.length) : markedText, marked.originals);
    }
    parts ??= findTexts(real, conversation.texts);
    return conversation.trailingText ? [...parts, { text: conversation.trailingText, special: false }] : parts;
  };
}

/** The texts found in order in the rendering (the first occurrence from where the last one ended), the rest the template's. */
function findTexts(rendered: string, texts: readonly string[]): RenderPart[] {
  const parts: RenderPart[] = [];
  let cursor = 0;
  for (const text of texts) {
    const at = rendered.indexOf(text, cursor);
    if (at < 0) continue;
    if (at > cursor) parts.push({ text: rendered.slice(cursor, at), special: true });
    parts.push({ text, special: false });
    cursor = at + text.length;
  }
  if (cursor < rendered.length) parts.push({ text: rendered.slice(cursor), special: true });
  return parts;
}
