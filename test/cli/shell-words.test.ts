import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/agent-flags.js";
import { mountMcpServers } from "../../cli/mcp-flags.js";
import { shellWords } from "../../cli/shell-words.js";

/** The words a real POSIX shell makes of `line` (sh: dash on Debian), each printed NUL-terminated. */
const shSplits = (line: string) => execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" }).split("\0").slice(0, -1);

describe("--mcp \"<command and args>\" is split into words as a POSIX shell splits them", () => {
  it.each([
    ["a backslash keeps a blank in its word", String.raw`npx server /tmp/my\ notes`, ["npx", "server", "/tmp/my notes"]],
    ["an escaped quote inside double quotes", String.raw`node -e "console.log(\"hi\")"`, ["node", "-e", 'console.log("hi")']],
    ["a backslash inside single quotes is literal", String.raw`server 'C:\data\x' 'a\"b'`, ["server", String.raw`C:\data\x`, String.raw`a\"b`]],
    ["inside double quotes a backslash escapes \\ and $ and stays before other characters", String.raw`s "a\\b" "c\$d" "e\f"`, ["s", String.raw`a\b`, "c$d", String.raw`e\f`]],
    ["quoted parts join their word; an empty quote is an empty word", `s --name="x y"'z' '' ""`, ["s", "--name=x yz", "", ""]],
    ["quoted operators and dollars are text", `s '|' "a;b" \\> '$HOME' \\$X "#"`, ["s", "|", "a;b", ">", "$HOME", "$X", "#"]],
    ["tabs and runs of blanks separate words", "s \t a   b", ["s", "a", "b"]],
  ])("%s", (_, line, words) => {
    expect(shellWords(line)).toEqual(words);
    expect(shSplits(line)).toEqual(words);
  });

  it.each([
    ["a pipe", "server | tee log", "the operator |"],
    ["a redirect", "server > out.txt", "the operator >"],
    ["a sequence", "server; rm -rf x", "the operator ;"],
    ["a background", "server &", "the operator &"],
    ["a subshell", "(server)", "the operator ("],
    ["a variable", "server --token $TOKEN", "the variable $TOKEN"],
    ["a variable in double quotes", 'server "${HOME}/x"', "the variable $HOME"],
    ["command substitution", "server $(cat key)", "command substitution"],
    ["command substitution in double quotes", 'server "`cat key`"', "command substitution"],
    ["a comment", "server # note", "a # comment"],
    ["an unclosed quote", "server 'notes", "an unclosed single quote"],
    ["an unclosed double quote ended by an escaped one", String.raw`server "notes\"`, "an unclosed double quote"],
    ["a variable inside a glob word", "server *$X", "the variable $X"],
    ["a braced variable inside a glob word", "server ?${HOME}", "the variable $HOME"],
    ["an empty substitution", "server ${}", "a variable (${…})"],
    ["an unclosed substitution", "server ${x", "the variable $x"],
  ])("refuses %s with a usage error saying so", (_, line, what) => {
    let error: unknown;
    try {
      shellWords(line);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain("--mcp takes a command and its arguments, no shell operators");
    expect((error as Error).message).toContain(what);
  });

  it("passes glob characters and ~ on as they are", () => {
    expect(shellWords("server *.md ~ ?")).toEqual(["server", "*.md", "~", "?"]);
  });

  it("refuses an operator before starting anything", async () => {
    await expect(mountMcpServers([`${process.execPath} server.js | tee log`], undefined)).rejects.toBeInstanceOf(UsageError);
  });
});
