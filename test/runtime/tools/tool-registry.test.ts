import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { ToolRegistry, type ExecuteOptions } from "../../../runtime/tools/tool-registry.js";

const options = (overrides: Partial<ExecuteOptions> = {}): ExecuteOptions => ({ signal: new AbortController().signal, turn: 1, timeoutMs: 1000, maxResultChars: 2000, ...overrides });
const tool = (name: string, run: () => unknown) => defineTool({ name, description: "", params: Type.Object({ n: Type.Number({ maximum: 10 }) }), run });

describe("ToolRegistry.execute: every failure is an observation with a code, never a throw", () => {
  const bigint = tool("Big", () => ({ value: 1n }));
  const registry = new ToolRegistry([
    tool("Ok", () => ({ fine: true })),
    tool("Throws", () => {
      throw new Error("boom");
    }),
    tool("Rejects", () => Promise.reject(new Error("nope"))),
    tool("Hangs", () => new Promise(() => {})),
    bigint,
    tool("ThrowsBare", () => {
      throw Object.create(null);
    }),
    tool("RejectsBare", () => Promise.reject(Object.create(null))),
    tool("ThrowsGetter", () => {
      const error = new Error("x");
      Object.defineProperty(error, "message", {
        get() {
          throw new Error("no message");
        },
      });
      throw error;
    }),
  ]);

  it.each([
    ["Ok", { n: 1 }, { ok: true, result: { fine: true } }],
    ["Missing", { n: 1 }, { ok: false, code: "unknown-tool" }],
    ["Ok", { n: 11 }, { ok: false, code: "bad-arguments", result: { error: "invalid arguments for Ok: /n must be <= 10" } }],
    ["Throws", { n: 1 }, { ok: false, code: "threw", result: { error: "Throws failed: boom" } }],
    ["Rejects", { n: 1 }, { ok: false, code: "threw", result: { error: "Rejects failed: nope" } }],
    ["Big", { n: 1 }, { ok: false, code: "unserialisable" }],
    // A tool that throws what has no text (no toString, a message getter that throws) is an observation too.
    ["ThrowsBare", { n: 1 }, { ok: false, code: "threw", result: { error: "ThrowsBare failed: an unprintable object" } }],
    ["RejectsBare", { n: 1 }, { ok: false, code: "threw", result: { error: "RejectsBare failed: an unprintable object" } }],
    ["ThrowsGetter", { n: 1 }, { ok: false, code: "threw", result: { error: "ThrowsGetter failed: an unprintable object" } }],
    // Found by the soak: a model wrote 1e999, JSON.parse made it Infinity, and ajv's "number" accepts that.
    ["Ok", JSON.parse('{"n":-1e999}'), { ok: false, code: "bad-arguments", result: { error: "invalid arguments for Ok: /n must be a finite number" } }],
  ] as const)("%s(%j)", async (name, args, expected) => {
    expect(await registry.execute(name, args, options())).toMatchObject(expected);
  });

  it("times out a tool that never settles", async () => {
    expect(await registry.execute("Hangs", { n: 1 }, options({ timeoutMs: 20 }))).toEqual({ ok: false, code: "timeout", result: { error: "Hangs timed out after 20 ms" } });
  });

  it("reports an abort of the run while a tool runs, even one that ignores its signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await registry.execute("Hangs", { n: 1 }, options({ signal: controller.signal, timeoutMs: 60_000 }))).toMatchObject({ ok: false, code: "aborted" });
  });
});
