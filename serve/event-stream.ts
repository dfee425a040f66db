import type { ServerResponse } from "node:http";
import type { RunEvent } from "../index.js";
import { chunk, closingChunks, type CompletionChoice, type CompletionHead } from "./completion-response.js";
import type { OpenAIError } from "./openai-error.js";

/** A streamed completion: nothing is written until the first event, so a request refused before then is still answered with its status. */
export interface EventStream {
  /** Whether the 200 and the first chunk went out (after that, an error is an event). */
  readonly started: boolean;
  /** Sends the thought of each turn as it is sampled. */
  follow(event: RunEvent): void;
  close(choice: CompletionChoice, includeUsage: boolean): void;
  fail(error: OpenAIError): void;
}

/** Server-sent events in OpenAI's framing: `data: <chunk>` lines, then `data: [DONE]`; the headers and the role chunk with the first of them. */
export function eventStream(response: ServerResponse, head: CompletionHead): EventStream {
  let started = false;
  const write = (data: object | string) => {
    if (response.writableEnded || response.destroyed) return;
    if (!started) {
      started = true;
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      response.write(`data: ${JSON.stringify(chunk(head, { role: "assistant", content: "" }))}\n\n`);
    }
    response.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  };
  // Whether the turn now running streamed its thought (a codec whose thought is not JSON text streams none: it is sent whole at the end).
  let streamed = false;
  return {
    get started() {
      return started;
    },
    follow(event) {
      if (event.type === "turn-start") streamed = false;
      if (event.type !== "text" || event.field !== "thought") return;
      streamed = true;
      write(chunk(head, { reasoning_content: event.text }));
    },
    close(choice, includeUsage) {
      if (!streamed && choice.message.reasoning_content) write(chunk(head, { reasoning_content: choice.message.reasoning_content }));
      for (const piece of closingChunks(head, choice, includeUsage)) write(piece);
      write("[DONE]");
      response.end();
    },
    fail(error) {
      write(error.body);
      write("[DONE]");
      response.end();
    },
  };
}
