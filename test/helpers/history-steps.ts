import type { ModelPort } from "../../runtime/engine/model-port.js";
import type { LogicalStep, StepCodec } from "../../runtime/codec/step-codec.js";
import { appendItems, initialHistory } from "../../runtime/history/history-items.js";
import { renderContext } from "../../runtime/history/render-history.js";

/** Each step as the codec writes it, with the history rendered before it and after its call (answered `{ok: true}`) joins the history. */
export function renderedAroundSteps(model: Pick<ModelPort, "chatWrapper">, codec: StepCodec, logicals: readonly LogicalStep[]): Array<{ text: string; before: string; after: string }> {
  const history = initialHistory("System.", "Task.");
  const render = () => renderContext(model.chatWrapper, history, undefined, { continueAfterCall: true }).toString();
  return logicals.map((logical) => {
    const text = codec.encode(logical);
    const before = render();
    appendItems(history, codec.callItems(text, logical, { name: logical.call.tool, args: logical.call.args, result: { ok: true } }), { joinModelTurns: true });
    return { text, before, after: render() };
  });
}
