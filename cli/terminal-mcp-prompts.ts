import type { McpElicitation, McpElicitationAnswer, McpElicitationField, McpSamplingRequest } from "../index.js";
import { oneAtATime, printable, readLine, readYesNoAlways } from "./terminal-input.js";

type Input = NodeJS.ReadableStream & { readableEnded?: boolean };

/** How many times a field is asked again after an answer it cannot take, before the whole form is cancelled. */
const TRIES_PER_FIELD = 3;

/** A field's answer read from a line: its value, undefined for "use the default / leave out", or an error to ask again. */
function fieldValue(field: McpElicitationField, line: string): { value?: string | number | boolean; error?: string } {
  const text = line.trim();
  if (text === "") return {};
  if (field.enum) {
    const index = Number(text);
    const chosen = Number.isInteger(index) && index >= 1 && index <= field.enum.length ? field.enum[index - 1] : field.enum.find((option) => String(option) === text);
    return chosen === undefined ? { error: `one of 1–${field.enum.length}` } : { value: chosen as string };
  }
  if (field.type === "boolean") return /^(y|yes|true)$/i.test(text) ? { value: true } : /^(n|no|false)$/i.test(text) ? { value: false } : { error: "y or n" };
  if (field.type === "number" || field.type === "integer") {
    const number = Number(text);
    if (!Number.isFinite(number) || (field.type === "integer" && !Number.isInteger(number))) return { error: field.type === "integer" ? "a whole number" : "a number" };
    if ((field.minimum !== undefined && number < field.minimum) || (field.maximum !== undefined && number > field.maximum)) return { error: `a number from ${field.minimum ?? "−∞"} to ${field.maximum ?? "∞"}` };
    return { value: number };
  }
  if ((field.minLength !== undefined && text.length < field.minLength) || (field.maxLength !== undefined && text.length > field.maxLength)) return { error: `${field.minLength ?? 0} to ${field.maxLength ?? "any number of"} characters` };
  return { value: text };
}

/** A field's question line: its title (or name), description, choices and default. */
function question(name: string, field: McpElicitationField, required: boolean): string {
  const choices = field.enum ? ` (${field.enum.map((option, index) => `${index + 1} ${printable(String(field.enumNames?.[index] ?? option))}`).join(", ")})` : field.type === "boolean" ? " (y/n)" : "";
  const fallback = field.default !== undefined ? ` [${printable(String(field.default))}]` : required ? "" : " [leave empty to skip]";
  return `  ${printable(field.title ?? name)}${field.description ? ` — ${printable(field.description)}` : ""}${choices}${fallback}: `;
}

/**
 * connectMcpServer's `elicit` on a terminal: the server's message, then a
 * yes/no to answering at all (no declines), then each field of the form in
 * turn (a default the server gave is taken on an empty line; the SDK fills
 * in the rest). A URL request shows the URL and asks whether it was done.
 * The input's end or the signal cancels.
 */
export function terminalElicit(server: string, input: Input, output: NodeJS.WritableStream) {
  return (request: McpElicitation, signal: AbortSignal): Promise<McpElicitationAnswer> => oneAtATime(input, () => elicit(request, signal));
  async function elicit(request: McpElicitation, signal: AbortSignal): Promise<McpElicitationAnswer> {
    const ask = async (text: string) => (output.write(text), readLine(input, signal));
    output.write(`\n${printable(server)} asks: ${printable(request.message)}\n`);
    if (request.mode === "url") {
      const done = await ask(`  Open ${printable(request.url)} — done? [y]es, [n]o: `);
      return done === null ? { action: "cancel" } : /^y/i.test(done.trim()) ? { action: "accept" } : { action: "decline" };
    }
    const agree = await ask("  Answer it? [y]es, [n]o: ");
    if (agree === null) return { action: "cancel" };
    if (!/^y/i.test(agree.trim())) return { action: "decline" };
    const content: Record<string, string | number | boolean> = {};
    const required = new Set(request.schema.required ?? []);
    for (const [name, field] of Object.entries(request.schema.properties ?? {})) {
      for (let tries = 1; ; tries++) {
        const line = await ask(question(name, field, required.has(name)));
        if (line === null) return { action: "cancel" };
        const read = fieldValue(field, line);
        if (read.value !== undefined) {
          content[name] = read.value;
          break;
        }
        // An empty line: the server's default (the SDK applies it), or a field that may be left out.
        if (read.error === undefined && (!required.has(name) || field.default !== undefined)) break;
        if (tries >= TRIES_PER_FIELD) return { action: "cancel" };
        output.write(`  (${read.error ?? "an answer is needed"})\n`);
      }
    }
    return { action: "accept", content };
  }
}

/**
 * The consent for a server's sampling request on a terminal: who asks, how
 * many tokens, and the last message (cut at 300 characters); y answers
 * this one, a (always) every later one of this server, n declines.
 */
export function terminalSamplingConsent(server: string, input: Input, output: NodeJS.WritableStream) {
  let always = false;
  return (request: McpSamplingRequest, signal: AbortSignal): Promise<boolean> => (always ? Promise.resolve(true) : oneAtATime(input, () => consent(request, signal)));
  async function consent(request: McpSamplingRequest, signal: AbortSignal): Promise<boolean> {
    if (always) return true;
    const last = request.messages.at(-1)?.text ?? "";
    output.write(`\n${printable(server)} asks your model to write up to ${request.maxTokens} tokens for it:\n  ${printable(last.length > 300 ? `${last.slice(0, 300)}…` : last)}\nLet it? [y]es, [n]o, [a]lways for this server: `);
    const answer = await readYesNoAlways(input, output, signal);
    if (answer === "always") always = true;
    return answer !== "no";
  }
}
