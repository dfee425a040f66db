/**
 * Asking a person at a terminal: whether one can be asked, one line read
 * from stdin (bounded by a signal), and text from servers and models made
 * safe to show there. Used by the approval prompt and the MCP prompts.
 */

/** Text from a server or a model as a terminal shows it: control characters (C0, DEL, C1: escape sequences) written as \u escapes, never sent to the terminal. */
export const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Whether a person can be asked: the answer comes from stdin and the question goes to stderr, so both must be terminals (a pipe answers nothing). */
export const canAsk = (input: { isTTY?: boolean }, output: { isTTY?: boolean }) => input.isTTY === true && output.isTTY === true;

/** One line from `input`: null at its end, or when `signal` fires. What follows the line in the same chunk (typed ahead) is dropped. */
export function readLine(input: NodeJS.ReadableStream & { readableEnded?: boolean }, signal: AbortSignal): Promise<string | null> {
  if (input.readableEnded || signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    let text = "";
    const finish = (line: string | null) => {
      input.off("data", onData);
      input.off("end", onEnd);
      signal.removeEventListener("abort", onEnd);
      // Paused, stdin no longer holds the process open once the run is over.
      input.pause();
      resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf("\n");
      if (end !== -1) finish(text.slice(0, end).replace(/\r$/, ""));
    };
    const onEnd = () => finish(null);
    input.on("data", onData);
    input.once("end", onEnd);
    signal.addEventListener("abort", onEnd, { once: true });
    input.resume();
  });
}

/** The prompt running on each input: a second waits for the first, so one typed line never answers two questions. */
const running = new WeakMap<object, Promise<unknown>>();

/** Runs a whole prompt (its question and every line it reads) alone on `input`: prompts from several servers, or an approval beside them, take turns. */
export function oneAtATime<T>(input: object, prompt: () => Promise<T>): Promise<T> {
  const before = running.get(input) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(prompt);
  running.set(input, mine.catch(() => undefined));
  return mine;
}

const ANSWERS: Readonly<Record<string, "yes" | "no" | "always">> = { y: "yes", yes: "yes", n: "no", no: "no", a: "always", always: "always" };

/** A yes / no / always read from `input` after a question already written: anything else asks again; the input's end (or the signal) is a no. */
export async function readYesNoAlways(input: NodeJS.ReadableStream & { readableEnded?: boolean }, output: NodeJS.WritableStream, signal: AbortSignal): Promise<"yes" | "no" | "always"> {
  for (;;) {
    const line = await readLine(input, signal);
    if (line === null) {
      output.write("\n");
      return "no";
    }
    const answer = ANSWERS[line.trim().toLowerCase()];
    if (answer) return answer;
    output.write("Answer y (yes), n (no) or a (always): ");
  }
}
