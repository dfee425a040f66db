import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { foldWord, NAMED_BONUS, rankingWords, rankTools } from "../../../runtime/tools/tool-relevance.js";
import { compactTool, firstSentence, minimalTool, shortlistTools } from "../../../runtime/tools/tool-shortlist.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { testLlama } from "../../helpers/llama.js";

const tool = (name: string, description: string, params: unknown = { type: "object", properties: {} }) => ({ name, description, params });

const FILES = [
  tool("list_directory", "Get a detailed listing of all files and directories in a specified path.", { type: "object", properties: { path: { type: "string" } } }),
  tool("read_text_file", "Read the complete contents of a file from the file system as text.", { type: "object", properties: { path: { type: "string", description: "Where the file is." } } }),
  tool("create_entities", "Create multiple new entities in the knowledge graph.", { type: "object", properties: { entities: { type: "array" } } }),
  tool("get-sum", "Returns the sum of two numbers.", { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } }),
  tool("echo", "Echoes back the input.", { type: "object", properties: { message: { type: "string" } } }),
];

describe("rankTools: the task's words against each tool's name, description and parameters", () => {
  it("folds words: plurals, -ing and -ed endings, camelCase and snake_case, stop words out", () => {
    expect(["files", "directories", "listing", "boxes", "created"].map(foldWord)).toEqual(["file", "directory", "list", "box", "creat"]);
    expect(rankingWords("What is in readTextFile's notes_dir?")).toEqual(["read", "text", "file", "note", "dir"]);
  });

  it("puts the tools whose words the task uses first, ties in the order given", () => {
    const ranking = rankTools("Read the notes file as text", FILES);
    expect(ranking[0]).toMatchObject({ name: "read_text_file", matched: expect.arrayContaining(["read", "text", "file"]) });
    // list_directory's description says "files"; the other three match no word, and keep the order given.
    expect(ranking.map((entry) => entry.name)).toEqual(["read_text_file", "list_directory", "create_entities", "get-sum", "echo"]);
    expect(ranking.slice(2).every((entry) => entry.score === 0 && entry.matched.length === 0)).toBe(true);
  });

  it("reads words in any script; a task whose words no tool uses keeps the order given", () => {
    const tools = [tool("wetter", "Das Wetter einer Stadt abrufen."), tool("météo", "Donne la météo d'une ville."), tool("天气", "查询城市天气")];
    expect(rankTools("Quelle est la météo à Paris ?", tools)[0]!.name).toBe("météo");
    expect(rankTools("Wie ist das Wetter in Berlin?", tools)[0]!.name).toBe("wetter");
    expect(rankTools("北京今天天气怎么样", tools).map((entry) => entry.name)).toEqual(["wetter", "météo", "天气"]);
  });

  it("a task that names a tool outright ranks it first, by its identifier or its words in order; a one-word name is only a word", () => {
    expect(rankTools("call get-sum with 2 and 3", FILES)[0]).toMatchObject({ name: "get-sum", score: expect.any(Number) });
    expect(rankTools("call get-sum with 2 and 3", FILES)[0]!.score).toBeGreaterThan(NAMED_BONUS);
    expect(rankTools("please list directory contents of /tmp", FILES)[0]!.score).toBeGreaterThan(NAMED_BONUS);
    expect(rankTools("echo hello", FILES)[0]).toMatchObject({ name: "echo" });
    expect(rankTools("echo hello", FILES)[0]!.score).toBeLessThan(NAMED_BONUS);
    // Not part of another word.
    expect(rankTools("use forget-summary", FILES).every((entry) => entry.score < NAMED_BONUS)).toBe(true);
  });

  it("is the same for the same input, and gives every tool a score", () => {
    const task = "Create a graph entity for the file list";
    expect(rankTools(task, FILES)).toEqual(rankTools(task, FILES));
    expect(rankTools(task, FILES)).toHaveLength(FILES.length);
    expect(rankTools("", FILES).map((entry) => entry.name)).toEqual(FILES.map((entry) => entry.name));
  });
});

describe("shortlistTools: what the first prompt documents", () => {
  // A prompt of 100 tokens, plus each tool's documentation at a token per character.
  const measure = (tools: readonly { name: string; description: string; params: unknown }[]) => 100 + tools.reduce((total, entry) => total + entry.name.length + entry.description.length + JSON.stringify(entry.params).length, 0);
  const full = measure(FILES);

  it("documents every tool as written where the prompt fits the budget, or where the context is unbounded", () => {
    for (const budget of [full, null]) {
      const { documented, shortlist } = shortlistTools({ task: "x", tools: FILES, neverOffered: new Set(), measure, budget });
      expect(documented).toEqual(FILES);
      expect(shortlist).toEqual({ shown: FILES.map((entry) => entry.name), left: [], compact: false, minimal: [], promptTokens: budget === null ? null : full, budget });
    }
  });

  it("then every tool by its first sentence, leaving out first the tools never offered", () => {
    const { documented, shortlist } = shortlistTools({ task: "x", tools: FILES, neverOffered: new Set(["create_entities"]), measure, budget: full - 1 });
    expect(documented.map((entry) => entry.name)).toEqual(["list_directory", "read_text_file", "get-sum", "echo"]);
    expect(documented[1]!.params).toEqual({ type: "object", properties: { path: { type: "string", description: "Where the file is." } } });
    expect(shortlist).toMatchObject({ compact: true, left: [{ name: "create_entities", kind: "off", reason: expect.stringContaining("never offered") }] });
    expect(shortlist.promptTokens).toBeLessThanOrEqual(full - 1);
  });

  it("then the largest best-ranked set that fits, in the order given, each left-out tool with its rank and why", () => {
    const budget = 100 + measure([FILES[1]!, FILES[0]!]) - 100;
    const { documented, shortlist } = shortlistTools({ task: "read the text of a file in a directory", tools: FILES, neverOffered: new Set(), measure, budget });
    expect(documented.map((entry) => entry.name)).toEqual(["list_directory", "read_text_file"]);
    expect(shortlist.shown).toEqual(["list_directory", "read_text_file"]);
    expect(shortlist.promptTokens).toBe(measure(documented));
    expect(shortlist.promptTokens).toBeLessThanOrEqual(budget);
    expect(shortlist.left.map((entry) => entry.name)).toEqual(["create_entities", "get-sum", "echo"]);
    expect(shortlist.left[0]!.reason).toMatch(/^ranked \d of 5 for the task \(no word of the task matched\); the 2 ranked above fill the tools' share of the context$/);
    expect(shortlist.left.every((entry) => entry.kind === "ranked")).toBe(true);
  });

  it("ranks a tool on its whole description, though the prompt shows only its first sentence", () => {
    const tools = [tool("alpha", "Does one thing. It can also convert currencies."), tool("beta", "Does another thing.")];
    const { documented } = shortlistTools({ task: "convert currencies", tools, neverOffered: new Set(), measure: (chosen) => 100 * chosen.length, budget: 100 });
    expect(documented).toEqual([tool("alpha", "Does one thing.")]);
  });

  it("shows nothing where nothing can be offered, and says so: an empty list, or every tool switched off", () => {
    expect(shortlistTools({ task: "x", tools: [], neverOffered: new Set(), measure, budget: 10 })).toEqual({ documented: [], shortlist: { shown: [], left: [], compact: false, minimal: [], promptTokens: 100, budget: 10 } });
    const off = shortlistTools({ task: "x", tools: FILES, neverOffered: new Set(FILES.map((entry) => entry.name)), measure, budget: 10 });
    expect(off.documented).toEqual([]);
    expect(off.shortlist).toMatchObject({ shown: [], compact: false });
    expect(off.shortlist.left.map((entry) => entry.kind)).toEqual(FILES.map(() => "off"));
  });

  it("keeps a huge description out of the prompt but ranks on it", () => {
    const huge = tool("huge", `Reads reports. ${"Filler words here. ".repeat(10_000)}`);
    const { documented, shortlist } = shortlistTools({ task: "read the reports", tools: [huge, ...FILES], neverOffered: new Set(), measure, budget: measure(FILES) });
    expect(documented[0]).toEqual({ ...huge, description: "Reads reports." });
    expect(shortlist.promptTokens).toBeLessThanOrEqual(measure(FILES));
  });

  it("documents a tool whose compact documentation alone outgrows the budget by its parameters' names and types, the others by first sentences", () => {
    const options = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`option${index}`, { type: "object", description: "An option. ".repeat(3), properties: { depth: { type: "integer", description: "How deep to go, in links from the page." } } }]));
    const scrape = tool("scrape", "Scrapes a page. It has many options.", { type: "object", properties: { url: { type: "string", description: "The page." }, ...options }, required: ["url"] });
    const budget = measure([minimalTool(scrape), ...FILES.map(compactTool)]);
    expect(measure([compactTool(scrape)])).toBeGreaterThan(budget);
    const { documented, shortlist } = shortlistTools({ task: "scrape the page", tools: [scrape, ...FILES], neverOffered: new Set(), measure, budget });
    expect(documented[0]).toEqual(minimalTool(scrape));
    expect(documented.slice(1)).toEqual(FILES.map(compactTool));
    expect(shortlist).toMatchObject({ shown: ["scrape", ...FILES.map((entry) => entry.name)], left: [], compact: true, minimal: ["scrape"] });
    expect(shortlist.promptTokens).toBeLessThanOrEqual(budget);
    // Where every tool fits compactly, nothing is measured alone and nothing is minimal.
    expect(shortlistTools({ task: "x", tools: [scrape], neverOffered: new Set(), measure, budget: measure([compactTool(scrape)]) }).shortlist.minimal).toEqual([]);
  });

  it("minimal documentation keeps the first sentence, each parameter's type (an array's items' too) and what is required", () => {
    const params = {
      type: "object",
      properties: {
        url: { type: "string", format: "uri", description: "The page. Long story." },
        formats: { type: "array", description: "Which.", items: { type: "string", enum: ["markdown", "html"] } },
        wait: { anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }], description: "Milliseconds." },
        mode: { enum: ["fast", "slow"] },
        location: { type: "object", properties: { country: { type: "string", description: "ISO code." } } },
        anything: { description: "Any value." },
        either: { anyOf: [{ type: "string" }, {}] },
      },
      required: ["url"],
    };
    expect(minimalTool(tool("scrape", "Scrapes a page. It has many options.", params))).toEqual(
      tool("scrape", "Scrapes a page.", {
        type: "object",
        properties: { url: { type: "string" }, formats: { type: "array", items: { type: "string" } }, wait: { type: ["integer", "null"] }, mode: { type: "string" }, location: { type: "object" }, anything: {}, either: {} },
        required: ["url"],
      }),
    );
  });

  it("keeps the best-ranked tool where not even one fits", () => {
    const { documented, shortlist } = shortlistTools({ task: "add numbers: the sum", tools: FILES, neverOffered: new Set(), measure, budget: 10 });
    expect(documented.map((entry) => entry.name)).toEqual(["get-sum"]);
    expect(shortlist.promptTokens).toBeGreaterThan(10);
  });

  it("compact documentation keeps each description's first sentence, at most 200 characters (parameters 100)", () => {
    expect(firstSentence("Reads a file. Use head for the first lines.", 200)).toBe("Reads a file.");
    expect(firstSentence("v1.2 reads files", 200)).toBe("v1.2 reads files");
    expect(firstSentence("x".repeat(300), 200)).toHaveLength(200);
    const compact = compactTool(tool("t", "One. Two.", { type: "object", properties: { a: { type: "string", description: "First. Second." } } }));
    expect(compact).toEqual(tool("t", "One.", { type: "object", properties: { a: { type: "string", description: "First." } } }));
    // A "description" inside a value (a default, a const, an enum, an example) is data: kept as it is.
    const values = { type: "object", properties: { b: { type: "object", default: { description: "Kept. Whole." }, examples: [{ description: "Also. Kept." }] } } };
    expect(compactTool(tool("v", "V.", values)).params).toEqual(values);
    // Cut between code points: an emoji is kept whole or left out.
    expect(firstSentence(`${"x".repeat(198)}😀😀😀`, 200)).toBe(`${"x".repeat(198)}😀…`);
  });
});

describe("a run with more tools than its context holds", () => {
  const many = Array.from({ length: 24 }, (_, index) =>
    defineTool({ name: `Gadget${index}`, description: `Operates gadget number ${index}. ${"It has a long manual. ".repeat(8)}`, params: Type.Object({ level: Type.Integer({ description: "How hard. ".repeat(6) }) }), run: () => ({ ok: index }) }),
  );
  const tools = [...many, ...weatherTools];

  it("shows the tools the task needs within toolShare of the context, records the rest with why, and offers only what it shows", async () => {
    const probe = scriptedModel([]);
    await runAgent({ model: probe, tools, task: "Weather in Paris?", profile: "mid", toolShare: 1 });
    const whole = probe.requests[0]!.prompt.length;
    const contextSize = Math.ceil(whole * 0.8);
    const model = scriptedModel([{ thought: "", call: { tool: "CityWeather", args: { city: "Paris" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "Paris: 18°C." } }], { contextSize });
    const events: unknown[] = [];
    const result = await runAgent({ model, tools, task: "What is the weather in Paris?", profile: "mid", onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C." });
    expect(result.tools.compact).toBe(true);
    expect(result.tools.shown).toContain("CityWeather");
    expect(result.tools.shown.length + result.tools.left.length).toBe(tools.length);
    expect(result.tools.left.length).toBeGreaterThan(0);
    expect(result.tools.promptTokens).toBeLessThanOrEqual(Math.floor(contextSize / 2));
    expect(model.requests[0]!.prompt.length).toBe(result.tools.promptTokens);
    for (const left of result.tools.left) {
      expect(left.reason).toMatch(/^ranked \d+ of \d+ for the task/);
      expect(model.requests[0]!.gbnf).not.toContain(`\\"${left.name}\\"`);
    }
    expect(model.requests[0]!.gbnf).toContain(`\\"CityWeather\\"`);
    for (const turn of result.turns) expect(turn.visible.tools.every((name) => result.tools.shown.includes(name))).toBe(true);
    expect(events[0]).toMatchObject({ type: "run-start", tools: result.tools.shown, shortlist: result.tools });
  });

  it("toolShare 1 documents every tool as long as the prompt fits the context at all; an unbounded context measures nothing", async () => {
    const probe = scriptedModel([]);
    const unbounded = await runAgent({ model: probe, tools, task: "Weather in Paris?", profile: "mid" });
    expect(unbounded.tools).toMatchObject({ left: [], compact: false, budget: null, promptTokens: null });
    const whole = probe.requests[0]!.prompt.length;
    const model = scriptedModel([], { contextSize: whole + 50 });
    const result = await runAgent({ model, tools, task: "Weather in Paris?", profile: "mid", toolShare: 1 });
    expect(result.tools).toMatchObject({ shown: tools.map((entry) => entry.name), left: [], compact: false, budget: whole + 50, promptTokens: whole });
  });

  /** A scraper documented at length (firecrawl_scrape's documentation alone is 3,762 tokens of a 4,096 context). */
  const scrape = defineTool({
    name: "firecrawl_scrape",
    description: `Scrape content from a single URL with advanced options. ${"This is the most powerful, fastest and most reliable scraper tool; use it when you know exactly which page holds the information. ".repeat(30)}`,
    params: Type.Object({
      url: Type.String({ description: `The URL to scrape. ${"It must be absolute, with its scheme. ".repeat(10)}` }),
      ...Object.fromEntries(
        Array.from({ length: 30 }, (_, index) => [
          `option${index}`,
          Type.Optional(Type.Object({ depth: Type.Integer({ description: `How deep option ${index} goes, in links from the page. ${"More words. ".repeat(8)}` }), mode: Type.Union([Type.Literal("fast"), Type.Literal("thorough")]) }, { description: `Option ${index} of the scrape. ${"It changes what comes back. ".repeat(8)}` })),
        ]),
      ),
    }),
    run: ({ url }) => ({ markdown: `# ${url}` }),
  });

  it("offers a tool whose documentation alone outgrows the tools' share, documented by its parameters' names and types: the prompt fits", async () => {
    const task = "Scrape https://example.com and tell me its title.";
    const contextSize = 4096;
    // Its documentation as written, and even by first sentences, takes more than the context's half by itself.
    for (const documented of [scrape, { ...scrape, ...compactTool(scrape) }]) {
      const probe = scriptedModel([]);
      await runAgent({ model: probe, tools: [documented], task, profile: "mid", maxTurns: 1 }).catch(() => undefined);
      expect(probe.requests[0]!.prompt.length).toBeGreaterThan(contextSize / 2);
    }
    const model = scriptedModel([{ thought: "", call: { tool: "firecrawl_scrape", args: { url: "https://example.com" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "It is example.com." } }], { contextSize });
    // Alone: the scripted model's tokens are code points, several to a tokenizer's token (the next test has the built-in model's).
    const result = await runAgent({ model, tools: [scrape], task, profile: "mid" });
    expect(result.tools).toMatchObject({ shown: ["firecrawl_scrape"], left: [], compact: true, minimal: ["firecrawl_scrape"], budget: contextSize / 2 });
    expect(result.tools.promptTokens).toBeLessThanOrEqual(contextSize / 2);
    expect(model.requests[0]!.prompt.length).toBe(result.tools.promptTokens);
    expect(result.turns[0]!.visible.tools).toContain("firecrawl_scrape");
    expect(result.turns[0]!).toMatchObject({ check: "ok", tool: { ok: true, result: { markdown: "# https://example.com" } } });
    // The documentation never changes the grammar: the same as where the whole documentation fits.
    const roomy = scriptedModel([{ thought: "", call: { tool: "FinalAnswer", answer: "-" } }], { contextSize: 100_000 });
    const whole = await runAgent({ model: roomy, tools: [scrape], task, profile: "mid", maxTurns: 2 });
    expect(whole.tools).toMatchObject({ compact: false, minimal: [] });
    expect(roomy.requests[0]!.gbnf).toBe(model.requests[0]!.gbnf);
  });

  it("fits it on the built-in model's tokenizer at its default context", async () => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      expect(model.description.contextSize).toBe(4096);
      // Two turns: the first offers the tools (a last turn offers only the final).
      const result = await runAgent({ model, tools: [scrape, ...weatherTools], task: "Scrape https://example.com and tell me its title.", maxTurns: 2 });
      expect(result.tools).toMatchObject({ shown: ["firecrawl_scrape", "CityWeather", "Calculator", "ConvertTemperature"], left: [], minimal: ["firecrawl_scrape"], budget: 2048 });
      expect(result.tools.promptTokens).toBeLessThanOrEqual(2048);
      expect(result.turns[0]!.visible.tools).toContain("firecrawl_scrape");
    } finally {
      await model.dispose();
    }
  });
});
