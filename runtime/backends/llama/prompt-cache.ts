import { createHash } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { commonPrefixLength } from "../../engine/common-prefix.js";

/**
 * A prompt cache on disk: the KV state of a prompt a run evaluated, saved
 * with node-llama-cpp's saveStateToFile, so a new process whose prompt
 * starts the same way (the same system prompt and tool documentation: every
 * `narrowgauge run` with the same tools) loads it instead of evaluating
 * those tokens again. The file's tokens come back with it; the generation
 * then keeps their common prefix with its prompt and evaluates the rest.
 *
 * A state is only ever loaded into the model it came from: its name holds a
 * fingerprint of the model file (path, size, modification time, a hash of
 * its first MiB: the GGUF header and metadata) and of the context's layout
 * (size, flash attention); node-llama-cpp warns that another model's state
 * may crash the process. A state that fails to load is deleted and the
 * prompt evaluated as usual. Files are written under a temporary name and
 * renamed, so concurrent processes never read half a file; a temporary file
 * a killed process left behind is removed when the cache is next opened.
 *
 * The state is loaded with node-llama-cpp's `acceptRisk` and no integrity
 * check beyond the model fingerprint in its name: whoever can write the
 * cache directory can make the process load any state. Keep it a directory
 * only the user running narrowgauge writes (the default is under the user's
 * cache folder).
 */
export interface PromptCacheStats {
  /** Tokens the loaded state held in common with the prompt (0 on a miss). */
  restored: number;
  ms: number;
}

export class PromptCache {
  private stored: readonly Token[] | null = null;

  private constructor(private readonly file: string) {}

  /** The cache for a model and context layout, in `directory` (created when missing). */
  static async open(directory: string, model: { file: string; contextSize: number; flashAttention: boolean }): Promise<PromptCache> {
    await mkdir(directory, { recursive: true });
    const cache = new PromptCache(join(resolve(directory), `${await fingerprint(model)}.kv`));
    await cache.sweepOrphans();
    return cache;
  }

  /**
   * Loads the stored state into an empty sequence when it shares at least
   * `minimum` tokens with `prompt`. Returns how many it shares (0 when
   * nothing was loaded).
   */
  async restore(sequence: LlamaContextSequence, prompt: readonly Token[], minimum = 16): Promise<PromptCacheStats> {
    const started = performance.now();
    if (sequence.contextTokens.length > 0) return { restored: 0, ms: 0 };
    const tokens = await this.tokens();
    const common = commonPrefixLength(tokens ?? [], prompt);
    if (common < minimum || !tokens) return { restored: 0, ms: performance.now() - started };
    try {
      await sequence.loadStateFromFile(this.file, { acceptRisk: true });
    } catch {
      await this.forget(sequence);
      return { restored: 0, ms: performance.now() - started };
    }
    return { restored: commonPrefixLength(sequence.contextTokens, prompt), ms: performance.now() - started };
  }

  /** Saves the sequence's state when the stored one shares less than half of `prompt` (a first run, or other tools). */
  async store(sequence: LlamaContextSequence, prompt: readonly Token[]): Promise<boolean> {
    const tokens = await this.tokens();
    if (tokens && commonPrefixLength(tokens, prompt) * 2 >= prompt.length) return false;
    const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await sequence.saveStateToFile(temporary);
      await writeFile(`${temporary}.tokens`, JSON.stringify(sequence.contextTokens));
      await rename(`${temporary}.tokens`, `${this.file}.tokens`);
      await rename(temporary, this.file);
      this.stored = [...sequence.contextTokens];
      return true;
    } catch {
      await rm(temporary, { force: true });
      await rm(`${temporary}.tokens`, { force: true });
      return false;
    }
  }

  /** Removes this cache's temporary files whose writing process is gone (killed mid-write). */
  private async sweepOrphans(): Promise<void> {
    const prefix = `${basename(this.file)}.`;
    const names = await readdir(dirname(this.file)).catch(() => [] as string[]);
    for (const name of names) {
      const match = /^(\d+)\.\d+\.tmp(\.tokens)?$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : "");
      if (match && !processAlive(Number(match[1]))) await rm(join(dirname(this.file), name), { force: true });
    }
  }

  /** The stored state's tokens, from its index file; null when there is none or it cannot be read. */
  private async tokens(): Promise<readonly Token[] | null> {
    if (this.stored) return this.stored;
    try {
      const parsed: unknown = JSON.parse(await readFile(`${this.file}.tokens`, "utf8"));
      if (!Array.isArray(parsed) || !parsed.every((token) => Number.isInteger(token))) return null;
      await stat(this.file);
      return (this.stored = parsed as Token[]);
    } catch {
      return null;
    }
  }

  private async forget(sequence: LlamaContextSequence): Promise<void> {
    this.stored = null;
    await rm(this.file, { force: true });
    await rm(`${this.file}.tokens`, { force: true });
    if (sequence.contextTokens.length > 0) await sequence.clearHistory();
  }
}

async function fingerprint(model: { file: string; contextSize: number; flashAttention: boolean }): Promise<string> {
  const path = resolve(model.file);
  const info = await stat(path);
  const handle = await open(path, "r");
  try {
    const head = Buffer.alloc(Math.min(info.size, 1 << 20));
    await handle.read(head, 0, head.length, 0);
    return createHash("sha256")
      .update(JSON.stringify({ path, size: info.size, mtime: info.mtimeMs, contextSize: model.contextSize, flashAttention: model.flashAttention }))
      .update(head)
      .digest("hex")
      .slice(0, 24);
  } finally {
    await handle.close();
  }
}

/** Whether a process of this id still runs (signal 0 tests without sending). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
