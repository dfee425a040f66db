import { LlamaText, SpecialToken, SpecialTokensText } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { sliceLlamaText, sliceLlamaTextEnd, textRuns } from "../../../runtime/history/llama-text-slice.js";

const text = LlamaText([new SpecialToken("BOS"), new SpecialTokensText("<|im_start|>user\n"), "Hi <|im_end|>", new SpecialTokensText("<|im_end|>\n")]);
const json = (value: LlamaText) => JSON.stringify(value.toJSON());

describe("slicing a rendered prompt", () => {
  it("keeps special-token text special where it is cut, and a built-in token whole", () => {
    expect(json(sliceLlamaText(text, 3 + "<|im_start|>".length, text.toString().length - "\n".length))).toBe(json(LlamaText([new SpecialTokensText("user\n"), "Hi <|im_end|>", new SpecialTokensText("<|im_end|>")])));
    expect(json(sliceLlamaText(text, 1, 5))).toBe(json(LlamaText([new SpecialToken("BOS"), new SpecialTokensText("<|")])));
  });

  it("slices from the end as from the start", () => {
    const whole = text.toString();
    for (let length = 0; length <= whole.length - 3; length++) expect(json(sliceLlamaTextEnd(text, length)), `${length}`).toBe(json(sliceLlamaText(text, whole.length - length)));
  });

  it("reads special-token text and plain text apart, whatever the values' split", () => {
    expect(textRuns(LlamaText(["a", new SpecialTokensText("<s>"), "b"]))).toBe(textRuns(LlamaText(["a", new SpecialTokensText("<"), new SpecialTokensText("s>"), "", "b"])));
    expect(textRuns(LlamaText(["a<s>b"]))).not.toBe(textRuns(LlamaText(["a", new SpecialTokensText("<s>"), "b"])));
  });
});
