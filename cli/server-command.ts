import { InvalidArgumentError, Option, type Command } from "commander";
import { buildLlamaServer, loadModel, startLlamaServer } from "../index.js";
import { EXIT } from "./run-command.js";

const positive = (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError("must be a positive integer");
  return value;
};

/** narrowgauge server build | start: a llama-server built from node-llama-cpp's own llama.cpp, for --model http://… */
export function serverCommand(command: Command, done: (code: number) => void): Command {
  command.description("build and start llama.cpp's server, so runs can use --model http://host:port");

  command
    .command("build")
    .description("build llama-server offline from the llama.cpp source node-llama-cpp ships, linked to its prebuilt libraries (cached per llama.cpp version); prints the binary's path last")
    .action(async () => {
      const started = performance.now();
      const binary = await buildLlamaServer({ log: (line) => process.stderr.write(`server:build: ${line}\n`) });
      process.stderr.write(`server:build: ready in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      process.stdout.write(`${binary}\n`);
      done(EXIT.answered);
    });

  command
    .command("start")
    .description("start llama-server on a model on a loopback port and print its URL; Ctrl-C stops it")
    .option("--model <source>", "a GGUF path, demo (the trained weather model), tiny or tiny:SEED (the built-in random model), or hf:user/repo/file.gguf (downloaded once)", "tiny")
    .option("--slots <n>", "parallel slots: runs it serves at once", positive, 4)
    .option("--slot-context <tokens>", "tokens per slot", positive, 4096)
    .option("--threads <n>", "CPU threads", positive, 1)
    .option("--port <n>", "port (default: a free one)", positive)
    .addOption(new Option("--api-key <key>", "a key every client must send (runs send it with --api-key or NARROWGAUGE_API_KEY); /health stays open").env("NARROWGAUGE_API_KEY"))
    .action(async (flags: { model: string; slots: number; slotContext: number; threads: number; port?: number; apiKey?: string }) => {
      // Resolves tiny:SEED and checks the file loads, with the errors the other commands give.
      const local = await loadModel(flags.model, { sequences: 1, contextSize: 256 });
      const file = local.opened.file;
      await local.dispose();
      // The first start builds llama-server (minutes): its steps are shown, not a silent wait.
      const binary = await buildLlamaServer({ log: (line) => process.stderr.write(`server:build: ${line}\n`) });
      // An empty NARROWGAUGE_API_KEY is no key.
      const apiKey = flags.apiKey || undefined;
      const server = await startLlamaServer({ model: file, binary, slots: flags.slots, slotContext: flags.slotContext, threads: flags.threads, port: flags.port, apiKey });
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`serving ${file} with ${flags.slots} slot(s) of ${flags.slotContext} tokens${apiKey ? " to clients that send its API key" : ""}; Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
        server.process.once("exit", resolve);
      });
      await server.stop();
      done(EXIT.answered);
    });
  return command;
}
