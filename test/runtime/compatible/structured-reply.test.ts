import { describe, expect, it } from "vitest";
import { structuredReply } from "../../../runtime/compatible/structured-reply.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { testLlama } from "../../helpers/llama.js";

describe("structuredReply's reasons", () => {
  it("a reply whose signal is aborted is 'aborted', not 'invalid'", async () => {
    const model = llamaModelPort(await openModel({ source: "tiny", llama: await testLlama() }));
    try {
      const reply = structuredReply({ model, messages: [{ role: "user", content: "Write a long note." }], schema: { type: "object", properties: { note: { type: "string", maxLength: 1000 } }, required: ["note"] }, signal: AbortSignal.abort(), maxTokens: 2000 });
      expect(await reply).toMatchObject({ ok: false, reason: "aborted" });
    } finally {
      await model.dispose();
    }
  });
});
