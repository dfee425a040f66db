import type { HistoryItem } from "../../base/chat-history.js";
import { callKey } from "../../guards/facts/canonical-args.js";
import type { CallAttempt, TurnFacts } from "../../guards/run-state.js";
import type { StepCodec } from "../codec/step-codec.js";
import { appendItems, feedbackItem } from "../history/history-items.js";
import { cutObservation } from "../tools/tool-observation.js";
import type { ToolNames } from "../tools/tool-names.js";
import { ChatRequestError } from "./chat-request-error.js";
import type { ShownConversation, ShownExchange } from "./read-conversation.js";

/** A conversation read off a message list as the loop keeps one: the history in the model's format, where each exchange starts, the earlier questions' calls, and the current question's turns as the guards read them. */
export interface DerivedConversation {
  readonly history: HistoryItem[];
  readonly exchanges: number[];
  readonly earlier: Array<{ task: string; calls: CallAttempt[] }>;
  /** The current question's turns so far: one per call, and one per reply the assistant gave in it. */
  readonly facts: TurnFacts[];
}

/**
 * The history a run would have kept for these exchanges: after the system
 * item, each question, then each call as the codec shows a step it wrote
 * (the thought, then the call in the model's own syntax, then its result;
 * `encode` writes the step the model would have written), the user's
 * further words as user items, and a reply as the assistant's text. A call
 * is the conversation's nth, as the model numbered it; its result is shown
 * as a run shows one, cut at `maxResultChars` with the marker. The calls of the
 * last exchange are its turns: each judged "ok", or "error" where its
 * result says it failed; the earlier exchanges' calls that succeeded
 * ground numbers and answer repeats, as a conversation's earlier questions do.
 */
export function deriveConversation(shown: ShownConversation, system: HistoryItem, codec: StepCodec, naming: ToolNames, known: (name: string) => boolean, maxResultChars: number): DerivedConversation {
  const history: HistoryItem[] = [system];
  const exchanges: number[] = [];
  const earlier: DerivedConversation["earlier"] = [];
  let facts: TurnFacts[] = [];
  let callNumber = 0;
  const addExchange = (exchange: ShownExchange) => {
    exchanges.push(history.length);
    history.push(feedbackItem(exchange.task));
    facts = [];
    for (const item of exchange.items) {
      if (item.kind === "user") history.push(feedbackItem(item.text));
      else if (item.kind === "reply") {
        history.push({ type: "model", response: [item.text] });
        facts.push({ index: facts.length + 1, check: "ok", call: null, final: true, notes: [], repeated: false });
      } else {
        const { call } = item;
        if (!known(call.name)) throw new ChatRequestError("messages", `a call of ${JSON.stringify(call.name)}, which tools does not declare`);
        const name = naming.model(call.name);
        callNumber += 1;
        const step = { ...(call.thought === undefined ? {} : { thought: call.thought }), call: { tool: name, args: call.args } };
        const raw = codec.encode(step, callNumber, callNumber - 1);
        // A result is shown as a run shows one: its JSON cut at maxResultChars, with the marker; what was cut grounds nothing.
        const observed = cutObservation(JSON.stringify(call.result), maxResultChars);
        appendItems(history, codec.callItems(raw, step, { name, args: call.args, result: observed.result }, callNumber), { joinModelTurns: codec.verbatim });
        const check = call.failed ? "error" : "ok";
        const index = facts.length + 1;
        const attempt: CallAttempt = { turn: index, name, args: call.args, key: callKey(name, call.args), check, result: observed.result, evidence: call.failed ? null : observed.evidence };
        facts.push({ index, check, call: attempt, final: false, notes: [], repeated: false });
      }
    }
  };
  shown.exchanges.forEach((exchange, index) => {
    addExchange(exchange);
    if (index < shown.exchanges.length - 1) earlier.push({ task: exchange.task, calls: facts.flatMap((turn) => (turn.call?.check === "ok" ? [turn.call] : [])) });
  });
  return { history, exchanges, earlier, facts };
}
