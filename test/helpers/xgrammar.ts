import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import type * as Xgrammar from "@mlc-ai/web-xgrammar";

/**
 * xgrammar (the grammar engine of vLLM, SGLang, TensorRT-LLM and WebLLM) as
 * `@mlc-ai/web-xgrammar` ships it: the C++ compiled to WebAssembly, wasm
 * inlined. Workaround: its lib/index.js is a UMD bundle that reaches for
 * `require` and `__filename` when it sees Node, but its package.json says
 * "type": "module", so Node imports it as ESM and it fails ("require is not
 * defined in ES module scope"). It is run here as the CommonJS it is.
 *
 * 0.1.27 is the last release on npm (xgrammar issue 696) and predates
 * xgrammar PRs 491 and 909: a character class reads a non-ASCII bound as its
 * low byte, and a negated class drops its non-ASCII members ("Negative
 * Character class contains byte greater than 127, clamping to 127", issue
 * 848) and admits every multi-byte character.
 */
type XgrammarModule = typeof Xgrammar;

/** The warning xgrammar 0.1.27 prints for each non-ASCII member of a negated class (issue 848); the grammars hold such members on purpose. */
const CLAMPING_WARNING = /Negative Character class contains byte greater than 127/;

let loaded: Promise<XgrammarModule> | undefined;

async function loadXgrammar(): Promise<XgrammarModule> {
  loaded ??= (async () => {
    const file = createRequire(import.meta.url).resolve("@mlc-ai/web-xgrammar");
    // Node's own CommonJS loader (Module#_compile, untyped), which gives the bundle `require` and the dynamic import it starts its wasm with.
    const module = new Module(file) as Module & { _compile(source: string, filename: string): void };
    module.filename = file;
    module._compile(readFileSync(file, "utf8"), file);
    const xgrammar = module.exports as XgrammarModule;
    // Emscripten binds its output to console.log and console.error as the wasm starts: start it through ones that drop only the clamping warning.
    const quiet = (write: (...data: unknown[]) => void) => (...data: unknown[]) => {
      if (!data.some((item) => CLAMPING_WARNING.test(String(item)))) write(...data);
    };
    const { log, error } = console;
    console.log = quiet(log.bind(console));
    console.error = quiet(error.bind(console));
    try {
      (await xgrammar.Grammar.fromEBNF('root ::= "a"')).dispose();
    } finally {
      console.log = log;
      console.error = error;
    }
    return xgrammar;
  })();
  return loaded;
}

let compiler: Promise<Xgrammar.GrammarCompiler> | undefined;

/** One compiler per test worker, over an empty vocabulary: matching works on characters, so no tokenizer is needed. */
function grammarCompiler(): Promise<Xgrammar.GrammarCompiler> {
  compiler ??= (async () => {
    const { GrammarCompiler, TokenizerInfo } = await loadXgrammar();
    return GrammarCompiler.createGrammarCompiler(await TokenizerInfo.createTokenizerInfo([]), false);
  })();
  return compiler;
}

/**
 * Parses GBNF text with xgrammar (it throws on text it cannot parse) and
 * returns whether its matcher accepts a whole string: the string's UTF-8
 * bytes fed through `GrammarMatcher._acceptString`, then a check that the
 * grammar may end there. That is xgrammar's own `Testings.isGrammarAcceptString`,
 * with the grammar compiled once instead of per string.
 */
export async function xgrammarMatcher(gbnf: string): Promise<(text: string) => boolean> {
  const { Grammar, GrammarMatcher } = await loadXgrammar();
  const grammar = await Grammar.fromEBNF(gbnf);
  const compiled = await (await grammarCompiler()).compileGrammar(grammar);
  // No stop token: the matcher terminates when the grammar may end.
  const matcher = await GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
  return (text) => {
    matcher.reset();
    return matcher._acceptString(text) && matcher.isTerminated();
  };
}

/** Whether xgrammar accepts `text` as a complete match of `gbnf` (one string; use xgrammarMatcher for many). */
export async function xgrammarAccepts(gbnf: string, text: string): Promise<boolean> {
  return (await xgrammarMatcher(gbnf))(text);
}
