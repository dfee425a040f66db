import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CorpusEntry } from "../../bench/corpus/bfcl.js";
import { judgeResponse, validityRequests } from "../../bench/serve/validity-requests.js";
import { ROOT } from "../helpers/cli.js";

const entries = (await readFile(join(ROOT, "test", "fixtures", "bfcl", "sample.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as CorpusEntry);

describe("the serving validity benchmark's requests and judge", () => {
  it("offers each request's function among others of distinct names, the same requests every time", () => {
    const requests = validityRequests(entries, 200);
    expect(requests).toHaveLength(200);
    requests.forEach((request, index) => {
      const names = request.tools.map((tool) => tool.function.name);
      expect(new Set(names).size).toBe(4);
      expect(names).toContain(entries[index % entries.length]!.function.name);
    });
    expect(validityRequests(entries, 5)).toEqual(validityRequests(entries, 5));
  });

  it("counts a call valid only when it names an offered tool and its arguments hold to that tool's schema", () => {
    const request = validityRequests(entries, 1)[0]!;
    const target = entries[0]!.function.name;
    const call = (name: string, args: string) => ({ content: null, tool_calls: [{ function: { name, arguments: args } }] });
    expect(judgeResponse(request, call(target, JSON.stringify({ base: 10, height: 5 })))).toBe("valid-call");
    expect(judgeResponse(request, call(target, JSON.stringify({ base: "ten", height: 5 })))).toBe("invalid-call");
    expect(judgeResponse(request, call(target, "{not json"))).toBe("invalid-call");
    expect(judgeResponse(request, call("no_such_tool", "{}"))).toBe("invalid-call");
    expect(judgeResponse(request, { content: "<tool_call>{}</tool_call>" })).toBe("text");
    expect(judgeResponse(request, { content: "\n\n\n" })).toBe("nothing");
    expect(judgeResponse(request, undefined)).toBe("error");
  });
});
