import { toJsonSchema, type CorpusEntry } from "../corpus/bfcl.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { validateAgainst } from "../../schemas/validator-cache.js";

/** One request of the validity benchmark: a user's message and the tools offered, BFCL's functions as JSON Schema. */
export interface ValidityRequest {
  messages: Array<{ role: "user"; content: string }>;
  tools: Array<{ type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
}

/** How a response came out: a call of an offered tool whose arguments hold to its schema; a call that does not; text; neither (no call, and no content or only whitespace: a step that failed, a generation cut off in blank lines); or an HTTP error. */
export type ResponseKind = "valid-call" | "invalid-call" | "text" | "nothing" | "error";

const asTool = (entry: CorpusEntry) => ({ type: "function" as const, function: { name: entry.function.name, description: entry.function.description, parameters: toJsonSchema(entry.function.parameters) as Record<string, unknown> } });

/**
 * `count` requests over the BFCL sample, the same for every server: the
 * nth names one function's task (its description and the ground-truth
 * call's values, as a user would ask) and offers it among `offered` tools
 * drawn from the sample (seeded), in a shuffled order.
 */
export function validityRequests(entries: readonly CorpusEntry[], count: number, offered = 4, seed = 1): ValidityRequest[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const target = entries[index % entries.length]!;
    // Distinct names (the sample holds a few functions twice, with other descriptions): a request declares each tool once.
    const others = new Map<string, CorpusEntry>();
    const names = new Set(entries.map((entry) => entry.function.name));
    while (others.size < Math.min(offered - 1, names.size - 1)) {
      const other = entries[Math.floor(random.next() * entries.length)]!;
      if (other.function.name !== target.function.name && !others.has(other.function.name)) others.set(other.function.name, other);
    }
    const tools = [target, ...others.values()].map(asTool);
    for (let at = tools.length - 1; at > 0; at--) {
      const swap = Math.floor(random.next() * (at + 1));
      [tools[at], tools[swap]] = [tools[swap]!, tools[at]!];
    }
    const values = Object.entries(target.calls[0]?.args ?? {}).map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(", ");
    return { messages: [{ role: "user", content: `${target.function.description}${values ? ` Use ${values}.` : ""}` }], tools };
  });
}

/** A chat completion's message judged against the request: one or more calls, each of an offered tool with arguments its schema accepts, is a valid call. */
export function judgeResponse(request: ValidityRequest, message: { content?: string | null; tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> } | undefined): ResponseKind {
  if (!message) return "error";
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return message.content?.trim() ? "text" : "nothing";
  for (const call of calls) {
    const tool = request.tools.find((offered) => offered.function.name === call.function?.name);
    if (!tool) return "invalid-call";
    let args: unknown;
    try {
      args = JSON.parse(call.function?.arguments ?? "");
    } catch {
      return "invalid-call";
    }
    if (validateAgainst(tool.function.parameters, args).length > 0) return "invalid-call";
  }
  return "valid-call";
}
