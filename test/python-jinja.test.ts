import { Template } from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { ChatTemplateError } from "../runtime/template/chat-template-error.js";
import { compileChatTemplate } from "../runtime/template/python-jinja.js";

const render = (source: string, variables: Record<string, unknown> = {}) => compileChatTemplate(source, { now: () => new Date(2026, 6, 26, 9, 5) }).render(variables);
const refusal = (source: string, variables: Record<string, unknown> = {}) => {
  try {
    render(source, variables);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("chat templates keep Python Jinja's semantics where @huggingface/jinja differs", () => {
  it("loops zero times over an undefined value (a message without tool_calls), where the library throws", () => {
    const source = "{% for call in message.tool_calls %}{{ call }}{% endfor %}done";
    expect(() => new Template(source).render({ message: {} })).toThrow(/Expected iterable/);
    expect(render(source, { message: {} })).toBe("done");
    expect(render("{% for x in xs if x > 1 %}{{ x }}{% endfor %}.", {})).toBe(".");
  });

  it("unpacks tuples in a loop (functionary's `for field, name in [(…), …]`), where the library throws", () => {
    const source = '{% for field, name in [("maximum", "Maximum"), ("minimum", "Minimum")] %}{{ field }}={{ name }};{% endfor %}';
    expect(() => new Template(source).render({})).toThrow(/unpack/);
    expect(render(source)).toBe("maximum=Maximum;minimum=Minimum;");
  });

  it("reads an undefined value as the empty string in string filters", () => {
    expect(render("[{{ message.content | trim }}]{{ missing | length }}", { message: {} })).toBe("[]0");
  });

  it("writes None, True and Python reprs where the library writes '', 'true' and JSON", () => {
    expect(render("{{ none }} {{ true }} {{ xs }} {{ d }}", { xs: ["a", 1], d: { k: "it's" } })).toBe(`None True ['a', 1] {'k': "it's"}`);
  });

  it("refuses a string plus a dict (a template that expects arguments as a JSON string), as Python does", () => {
    expect(refusal("{{ 'args: ' + args }}", { args: { city: "Paris" } })).toMatchObject({ construct: "render", detail: 'can only concatenate str (not "ObjectValue") to str' });
    expect(render("{{ 'args: ' + args }}", { args: '{"city": "Paris"}' })).toBe('args: {"city": "Paris"}');
  });

  it("writes strftime_now with Python's directives, on the given clock", () => {
    expect(render("{{ strftime_now('%d %b %Y, %A %H:%M %%') }}")).toBe("26 Jul 2026, Sunday 09:05 %");
  });

  it("gives a typed error naming the construct: a syntax error, the template's raise_exception, a huge range", () => {
    expect(() => compileChatTemplate("{% if %}")).toThrow(ChatTemplateError);
    expect(refusal("{{ raise_exception('System role not supported') }}")).toMatchObject({ construct: "raise_exception", detail: "System role not supported", endsRun: true });
    expect(refusal("{% for i in range(10 ** 9) %}x{% endfor %}")).toMatchObject({ construct: "render" });
    expect(render("{% for i in range(2, 7, 2) %}{{ i }}{% endfor %}")).toBe("246");
  });

  it("bounds what a template from a model file can cost: steps, output, nesting — each a typed error", () => {
    expect(refusal("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")).toMatchObject({ construct: "render", detail: expect.stringContaining("steps") });
    expect(refusal("{% set ns = namespace(s='xxxxxxxxxxxxxxxx') %}{% for i in range(21) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s }}")).toMatchObject({ construct: "render", detail: expect.stringContaining("characters") });
    expect(() => compileChatTemplate(`{{ a${"[0]".repeat(20_000)} }}`)).toThrow(ChatTemplateError);
  });

  it("gives dict literals Python's meaning too", () => {
    expect(refusal("{{ {'a': 'x' + d}['a'] }}", { d: { k: 1 } })).toMatchObject({ construct: "render" });
    expect(render("{{ {'a': m[k]}['a'] }}.", { m: { x: 1 } })).toBe(".");
  });
});
