import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../../index.js";
import * as testing from "../../testing.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { ROOT } from "../helpers/cli.js";

/** The rooms whose code runs inside a user's program. */
const LIBRARY_ROOMS = ["base", "prompts", "schemas", "guards", "runtime", "browser/index.ts", "browser/load-page-model.ts", "core.ts", "index.ts", "testing.ts"];

function files(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full).flatMap((name) => files(join(path, name)));
}

describe("every error narrowgauge throws is a NarrowgaugeError", () => {
  it("exports no error class that is not one, and each says whether it ends the run", () => {
    const classes = Object.entries({ ...api, ...testing }).filter(([name, value]) => name.endsWith("Error") && typeof value === "function" && value !== NarrowgaugeError);
    expect(classes.length).toBeGreaterThan(25);
    for (const [name, value] of classes) {
      expect((value as { prototype: unknown }).prototype, name).toBeInstanceOf(NarrowgaugeError);
    }
    const sample = new api.ContextOverflowError(10, 10, 15);
    expect(sample).toMatchObject({ code: "context-overflow", endsRun: true });
    expect(new api.TruncatedOutputError("{", "max-tokens", 1)).toMatchObject({ endsRun: false });
    expect(new api.AbortedOutputError("{")).toMatchObject({ endsRun: true });
  });

  it("throws no bare Error, RangeError, TypeError or SyntaxError anywhere in the library's code", () => {
    const bare = /throw new (?:Error|RangeError|TypeError|SyntaxError)\(|extends (?:Error|RangeError|TypeError|SyntaxError) \{/;
    const offenders = LIBRARY_ROOMS.flatMap(files)
      .filter((file) => file.endsWith(".ts") && !file.endsWith("base/narrowgauge-error.ts"))
      .filter((file) => bare.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
