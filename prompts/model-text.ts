/**
 * Every sentence narrowgauge writes that a model reads: the system prompt,
 * the FinalAnswer documentation, feedback after an unusable step, refusals,
 * repeat notes, forced-final notes, the answer gate's judgement prompts and
 * nudge, tool failures, and architecture A's digest and two-phase asks.
 *
 * One place to read, diff and snapshot what the model sees. A model trained
 * on narrowgauge's own runs (the demo's default) learned this text byte for
 * byte, so change a sentence only on purpose, and measure: each one is pinned
 * by `test/prompts/model-text.test.ts`. Wording that is quoted (numbers,
 * values, tool names) is data; everything around it is here.
 */

const list = (items: readonly unknown[]) => items.join(", ");

/** The system prompt runAgent uses unless given another; the chat wrapper appends the tool documentation. */
export const DEFAULT_SYSTEM_PROMPT =
  "You are a careful assistant that answers by calling tools. Each reply is one JSON step: a short thought about what the " +
  "conversation already provides and what is still missing, then one call. Call FinalAnswer once the tool results answer the question.";

/**
 * The system prompt for a step in the model family's own call syntax (the
 * "native" codec): the same job without the JSON step, since the step is the
 * thought as plain text and then one call as the family writes calls.
 */
export const NATIVE_SYSTEM_PROMPT =
  "You are a careful assistant that answers by calling tools. Each reply is a short thought about what the " +
  "conversation already provides and what is still missing, then one tool call. Call FinalAnswer once the tool results answer the question.";

/** The native codec's system prompt where the format keeps no text beside a call (Hermes-3, Llama 3.x): each reply is the call alone. */
export const NATIVE_CALL_ONLY_SYSTEM_PROMPT =
  "You are a careful assistant that answers by calling tools. Each reply is one tool call, chosen by what the conversation " +
  "already provides and what is still missing. Call FinalAnswer once the tool results answer the question.";

/**
 * The tool section the "json" codec appends to the system prompt (formats
 * without a call syntax of their own): each tool with its JSON Schema, then
 * the step's shape, exactly as the grammar forces it.
 */
export const JSON_STEP_TOOLS = {
  heading: "Tools:",
  tool: (name: string, description: string, params: string) => `- ${name}: ${description} Arguments (JSON Schema): ${params}`,
  answer: (description: string) => `- FinalAnswer: ${description} Write it as "answer", a string.`,
  /** FinalAnswer with runAgent's `answerSchema`: the answer is a value of that schema. */
  structuredAnswer: (description: string, schema: string) => `- FinalAnswer: ${description} Write it as "answer", a JSON value of this schema: ${schema}`,
  shape: (thought: boolean, structured = false) => {
    const answer = structured ? "{…}" : '"…"';
    return thought
      ? `Reply with one JSON object and nothing else: {"thought":"…","call":{"tool":"<tool name>","args":{…}}}, or {"thought":"…","call":{"tool":"FinalAnswer","answer":${answer}}}.`
      : `Reply with one JSON object and nothing else: {"call":{"tool":"<tool name>","args":{…}}}, or {"call":{"tool":"FinalAnswer","answer":${answer}}}.`;
  },
};

/** How the "json" codec shows a call's result: the next user turn, since the format has no tool role of its own. */
export const OBSERVATION = (tool: string, result: string) => `${tool} returned: ${result}`;

/** How FinalAnswer is documented beside the tools. */
export const FINAL_ANSWER_DESCRIPTION = "Give the final answer to the user, using only what the tool results established.";

/** After an output the loop could not use; `options` are the tools (and FinalAnswer) the next step may call. */
export const INVALID_STEP = {
  truncated: (options: readonly string[]) => `Your last reply was cut off before it was complete. Keep the thought short and reply with one step calling one of: ${list(options)}.`,
  invalidUtf8: (options: readonly string[]) => `Your last reply contained bytes that are not valid text. Reply with one step calling one of: ${list(options)}.`,
  other: (options: readonly string[]) => `Your last reply was not a valid step. Reply with one step calling one of: ${list(options)}.`,
};

/** Why a tool is not offered; shown to a model that calls it anyway, after "X is not available now: ". */
export const WITHHELD = {
  /** G3. */
  banned: (failures: number) => `it failed ${failures} times`,
  /** A5. */
  switchedOff: "switched off for this run",
  /** A5: the person declined a call of it (runAgent's `approve`). */
  declined: "the person declined to run it",
  /** G4: a required number has no grounded candidate yet. */
  noGroundedNumber: (parameter: string) => `no grounded number can fill ${parameter} yet`,
  /** G5: every value of its one parameter has been fetched. */
  allFetched: (parameter: string) => `every value of ${parameter} has been fetched`,
  /** The final is forced. */
  finalOnly: "only FinalAnswer is allowed now",
  /** No decision says why. */
  notOffered: "it is not offered this turn",
};

/** A call that does not run, shown as its result. */
export const REFUSED = {
  unknownTool: (tool: string) => `unknown tool "${tool}"`,
  notAvailable: (tool: string, why: string) => `${tool} is not available now: ${why}.`,
  outsideDomain: (value: unknown, parameter: string, allowed: readonly unknown[]) =>
    `${JSON.stringify(value)} is not allowed for ${parameter} now; allowed: ${allowed.map((candidate) => JSON.stringify(candidate)).join(", ")}.`,
  badArguments: (tool: string, issues: string) => `invalid arguments for ${tool}: ${issues}`,
  /** G4: who can supply the number — the tools that declare `provides`, or a generic line. */
  ungroundedNumber: (numbers: readonly number[], tool: string, suppliers: ReadonlyArray<{ tool: string; provides: string }>) =>
    `${list(numbers)} is not a number from the request or any tool result, so ${tool} was not run. ` +
    (suppliers.length > 0 ? suppliers.map((supplier) => `Use ${supplier.tool} to fetch ${supplier.provides} first.`).join(" ") : "Use a number from the request, or fetch it with a tool first."),
  /** The person asked (runAgent's `approve`) said no: the call did not run, and the tool leaves the union (A5). */
  declined: (tool: string) => `The person declined this call of ${tool}, so it did not run, and ${tool} will not be offered again.`,
  /** G5: the ledger's answer to a repeated call, beside the earlier result. */
  repeat: (turn: number) =>
    `You already made this exact call on turn ${turn}. Its result is below and will not change. Use what you have, try different arguments, or answer and say what is missing.`,
};

/** A tool that ran and failed, as the registry reports it. */
export const TOOL_FAILED = {
  unknownTool: (tool: string, available: readonly string[]) => `unknown tool "${tool}"; available: ${list(available)}`,
  protoKey: (tool: string) => `invalid arguments for ${tool}: "__proto__" is not accepted as a property name`,
  aborted: (tool: string) => `the run was aborted while ${tool} ran`,
  /** The run was aborted while a person was asked whether the call may run (runAgent's `approve`). */
  abortedAsking: (tool: string) => `the run was aborted while the person was asked whether ${tool} may run`,
  timedOut: (tool: string, ms: number) => `${tool} timed out after ${ms} ms`,
  threw: (tool: string, message: string) => `${tool} failed: ${message}`,
  unserialisable: (message: string) => `the tool returned a value that is not JSON-serialisable: ${message}`,
  /** Appended to a result cut at `maxResultChars`. */
  truncated: (moreCharacters: number) => `${TRUNCATION_MARKER} ${moreCharacters} more characters]`,
};

/** Where a truncated result's note starts: text narrowgauge wrote, so it grounds nothing. */
export const TRUNCATION_MARKER = "…[truncated";

/** A FinalAnswer sent back instead of accepted; the draft itself is never shown again. */
export const SENT_BACK = {
  /** FinalAnswer was not in this turn's grammar. */
  hidden: "FinalAnswer is not available yet: call one of the tools first.",
  /** G4: numbers no source supports; `allowed` are the grounded ones. */
  numbers: (ungrounded: readonly number[], allowed: readonly number[]) =>
    `Your answer used ${list(ungrounded)}, which is not in the request or any tool result. ` +
    (allowed.length > 0 ? `Answer again using only these numbers: ${list(allowed)}.` : "Answer again without numbers that no tool returned."),
  /** G4: names no source supports; `allowed` are the grounded ones. */
  names: (ungrounded: readonly string[], allowed: readonly string[]) =>
    `Your answer named ${list(ungrounded)}, which is not in the request or any tool result. ` +
    (allowed.length > 0 ? `Answer again naming only: ${list(allowed)}.` : "Answer again without naming what no tool returned."),
  /** G10 as a check: the answer came before every value the task names was looked up; a tool that takes each missing one. */
  incomplete: (missing: ReadonlyArray<{ tool: string; value: string }>) =>
    `The request also asks about ${list(missing.map((part) => part.value))}, which no tool result covers yet. ${missing.map((part) => `Call ${part.tool} for ${part.value}.`).join(" ")}`,
  /** G10: the answer leaves out values the request names, which were looked up. */
  unmentioned: (missing: readonly string[], all: readonly string[]) => `Your answer does not mention ${list(missing)}. Answer again about each of: ${list(all)}.`,
  /** G4's pairing: values stated beside a subject whose sources are all about other subjects. */
  misattributed: (items: ReadonlyArray<{ value: string; beside: string; from: readonly string[] }>) =>
    `${items.map((item) => `${item.value} came from ${list(item.from)}, not ${item.beside}.`).join(" ")} Answer again with each value beside the subject it came from.`,
  /** A4: the gate's nudge carries something to look up. */
  nudge: (query: string) => `Do not answer yet: look it up first. Call a tool to find: ${query}`,
};

/** How much of a failed call's message the forced final's note quotes, in code points. */
const FAILURE_QUOTE = 120;
/** A failure's message as the note quotes it: whole, or cut between code points and marked. */
function quoted(error: string): string {
  const points = Array.from(error);
  return points.length <= FAILURE_QUOTE ? error : `${points.slice(0, FAILURE_QUOTE - 1).join("")}…`;
}

/** G8: the note appended when the final is forced. */
export const FORCED_FINAL = {
  /** Tool results exist: answer from them and say what is missing. */
  fromResults: (missing: readonly string[]) =>
    "Final step: the tools are no longer available. Answer now with FinalAnswer, using only the tool results above." +
    (missing.length > 0 ? ` Could not be found: ${missing.join("; ")}. Say so in the answer.` : ""),
  /** A5: no tool result at all although one was needed: answer from what is known, and say so. */
  fromKnowledge: (missing: readonly string[]) =>
    "Final step: no tool result is available" +
    (missing.length > 0 ? ` (${missing.join("; ")})` : "") +
    ". Answer now with FinalAnswer from what you know, and say clearly what you could not check.",
  /** The parts of `missing`. */
  notFetched: (tool: string, value: string) => `${tool} for ${value}`,
  switchedOff: (tool: string) => `${tool} is switched off`,
  /** A failure's message quoted at most FAILURE_QUOTE characters: the note must fit where the context is nearly full. */
  failed: (tool: string, error: string | null) => `${tool} (${error === null ? "it did not succeed" : quoted(error)})`,
  nothing: "no tool returned a result",
};

/**
 * The answer gate's two constrained questions (A2, A3). Written for one
 * judgement each: concrete examples of both answers, time words count.
 */
export const FRESHNESS_PROMPT = [
  "You judge one thing about a question: does answering it correctly need information that changes over time or happened recently, so that it must be looked up now?",
  "",
  "true for weather, news, prices, exchange rates, scores, results, schedules, opening hours, traffic, anything about what is happening now;",
  "and true whenever the question has a time word such as today, tonight, now, right now, currently, this week, latest, recent or yesterday, even if its subject sounds ordinary.",
  "false for definitions, explanations, how things work, history, arithmetic, unit conversions, code and recipes: their answers do not change.",
  "",
  "Examples:",
  '"What\'s the weather in Paris?" -> true',
  '"Is the pharmacy on Main Street open right now?" -> true',
  '"Who won the match yesterday?" -> true',
  '"Convert 20 C to F." -> false',
  '"What is the capital of Japan?" -> false',
  '"How does a heat pump work?" -> false',
  "",
  'Reply with {"needs_current_information": true} or {"needs_current_information": false}.',
].join("\n");

export const VERDICT_PROMPT = [
  "A user asked a question that needs current information, and an assistant drafted a reply without looking anything up.",
  'Decide one thing: does the draft answer the question with specific information ("answered"), or does it not: it defers, offers to look, or says nothing specific ("research")?',
  'If "research", give the search query that would find the answer.',
].join("\n");

/** The verdict's user message. */
export const verdictQuestion = (question: string, draft: string) => `Question: ${question}\n\nDraft reply: ${draft}`;

/** Architecture A (the probe): the history rebuilt as one plain-text digest, and the second call of a two-phase step. */
export const ARCHITECTURE_A = {
  note: (text: string) => `Note: ${text}`,
  thought: (text: string) => `Thought: ${text}`,
  step: (index: number, tool: string, args: unknown, result: unknown) => `Step ${index}: ${tool}(${JSON.stringify(args)}) returned ${JSON.stringify(result)}`,
  digest: (task: string, lines: readonly string[]) => `${task}\n\nProgress so far:\n${lines.join("\n")}\n\nWhat is the next step?`,
  fillArguments: (tool: string) => `Fill in the arguments for ${tool}.`,
  writeAnswer: "Write the final answer.",
};
