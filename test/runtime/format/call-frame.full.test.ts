import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import { Llama3_1ChatWrapper, Llama3_2LightweightChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { forgedModelFile } from "../../../bench/forge/real-tokenizers.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { readCallFrame } from "../../../runtime/format/call-frame.js";
import { testLlama } from "../../helpers/llama.js";

/** The call frame read on a model forged around a real vocabulary (Llama 3's): the unit tier reads frames with code points (call-frame.test.ts). */
describe("the call frame read off a chat wrapper", () => {
  it("cuts the frame where only a special token can write the rest: Llama 3.2's <|eot_id|> on the real Llama 3 vocabulary", async () => {
    const opened = await openModel({ source: await forgedModelFile("llama3_1"), llama: await testLlama(), sequences: 1 });
    try {
      const port = llamaModelPort(opened);
      // The package's vocabulary is Llama 3's: <|eot_id|> is a special token, <|eom_id|> (3.1's) is not there.
      expect(readCallFrame({ ...port, chatRenderer: chatRendererOf(new Llama3_2LightweightChatWrapper()) })).toEqual({ ok: true, frame: expect.objectContaining({ after: "}" }) });
      expect(readCallFrame({ ...port, chatRenderer: chatRendererOf(new Llama3_1ChatWrapper()) })).toEqual({ ok: true, frame: expect.objectContaining({ after: "</function><|eom_id|>" }) });
    } finally {
      await opened.dispose();
    }
  });
});
