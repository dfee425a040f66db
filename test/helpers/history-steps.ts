import type { ModelPort } from "../../runtime/engine/model-port.js";
import type { LogicalStep, StepCodec } from "../../runtime/codec/step-codec.js";
import { appendItems, initialHistory } from "../../runtime/history/history-items.js";
import { renderContext } from "../../runtime/history/render-history.js";
import { withoutDroppedEnd } from "../../runtime/codec/prompt-end.js";

/** Each step as the codec writes it (as the conversation's first, second… call), with the history rendered before it and after its call (answered `{ok: true}`) joins the history. */
export function renderedAroundSteps(model: Pick<ModelPort, "chatRenderer">, codec: StepCodec, logicals: readonly LogicalStep[]): Array<{ text: string; before: string; after: string }> {
  const history = initialHistory("System.", "Task.");
  // The prompt a step is written after, as the loop renders it (less the end the step's rendering drops: DeepSeek-R1's).
  const render = () => withoutDroppedEnd(renderContext(model.chatRenderer, history, undefined, { continueAfterCall: true }), history, codec).toString();
  return logicals.map((logical, index) => {
    const text = codec.encode(logical, index + 1);
    const before = render();
    appendItems(history, codec.callItems(text, logical, { name: logical.call.tool, args: logical.call.args, result: { ok: true } }, index + 1), { joinModelTurns: true });
    return { text, before, after: render() };
  });
}
