/**
 * Which parts of a rendered prompt are the conversation's own texts (plain
 * text: a user's or a tool's "<|im_end|>" stays characters) and which the
 * template wrote (special-token text). The conversation is rendered a second
 * time with every text replaced by a marker; the marked rendering's parts
 * between markers are the template's, found in the real rendering in order,
 * and what lies between them there is the text (as the template wrote it:
 * trimmed, JSON-escaped, …).
 */

const OPEN = "\uE000";
const CLOSE = "\uE001";
const MARKER = /\uE000(\d+)\uE001/;

export interface RenderPart {
  readonly text: string;
  readonly special: boolean;
}

/**
 * The variables with every non-empty string a conversation brings (contents,
 * arguments' string values, results, tool and parameter descriptions; not
 * names, keys or types) as a marker; null when a text holds the marker
 * characters itself. A content given in `pieces` (by message index) is
 * marked piece by piece, its special pieces left as text of the template's.
 */
export function markTexts(variables: { messages: Record<string, unknown>[]; tools?: Record<string, unknown>[] }, pieces: ReadonlyMap<number, ReadonlyArray<{ text: string; plain: boolean }>> = new Map()): { messages: unknown[]; tools: unknown[] | undefined; originals: string[] } | null {
  const originals: string[] = [];
  let clash = false;
  const mark = (text: string): string => {
    if (text.includes(OPEN) || text.includes(CLOSE)) clash = true;
    if (text === "") return text;
    originals.push(text);
    return `${OPEN}${originals.length - 1}${CLOSE}`;
  };
  const values = (value: unknown): unknown => {
    if (typeof value === "string") return mark(value);
    if (Array.isArray(value)) return value.map(values);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, values(item)]));
    return value;
  };
  // In a schema, only descriptions: a template reads its `type`s and names to decide what to write.
  const descriptions = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(descriptions);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === "description" && typeof item === "string" ? mark(item) : descriptions(item)]));
    return value;
  };
  const messages = variables.messages.map((message, index) => {
    const copy: Record<string, unknown> = { ...message };
    // A content in pieces (a call written into it): its special pieces are left as they are, so they read as the template's own.
    const contentPieces = pieces.get(index);
    if (contentPieces) copy.content = contentPieces.map((piece) => (piece.plain ? mark(piece.text) : piece.text)).join("");
    else if (typeof message.content === "string") copy.content = mark(message.content);
    if (Array.isArray(message.tool_calls)) {
      copy.tool_calls = (message.tool_calls as Array<{ function: { arguments: unknown } }>).map((call) => ({ ...call, function: { ...call.function, arguments: values(call.function.arguments) } }));
    }
    return copy;
  });
  const tools = variables.tools?.map((tool) => {
    const fn = (tool as { function: { description?: unknown; parameters?: unknown } }).function;
    return { ...tool, function: { ...fn, description: values(fn.description), parameters: descriptions(fn.parameters) } };
  });
  return clash ? null : { messages, tools, originals };
}

/** The real rendering cut into the template's parts and the texts, read off the marked rendering; null when the two do not line up (a template that branches on a text's value). */
export function splitRendered(real: string, marked: string, originals: readonly string[]): RenderPart[] | null {
  const pieces = marked.split(MARKER);
  const parts: RenderPart[] = [];
  let at = 0;
  for (let index = 0; index < pieces.length; index += 2) {
    const template = pieces[index]!;
    if (!real.startsWith(template, at)) return null;
    if (template !== "") parts.push({ text: template, special: true });
    at += template.length;
    if (index + 1 >= pieces.length) break;
    const original = originals[Number(pieces[index + 1])];
    const next = pieces[index + 2] ?? "";
    if (original === undefined) return null;
    const written = [original, JSON.stringify(original).slice(1, -1)].find((text) => real.startsWith(text, at) && real.startsWith(next, at + text.length));
    let length = written?.length ?? -1;
    if (length < 0) {
      // The template changed the text (trimmed it, say): it runs to the next part of the template's own.
      const end = next === "" ? -1 : real.indexOf(next, at);
      if (end < 0) return null;
      length = end - at;
    }
    if (length > 0) parts.push({ text: real.slice(at, at + length), special: false });
    at += length;
  }
  return at === real.length ? parts : null;
}
