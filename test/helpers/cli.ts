import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

export const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The longest one command-line process may take before it is killed: tsx
 * starting, a model loading and a short run, on a 2-core machine that is
 * busy with other test workers (a few seconds when it is not). A bound, so
 * a process that hangs fails its test instead of stalling the suite; never
 * a race with the machine's speed.
 */
export const PROCESS_MS = 120_000;

/** A test's time limit from what it does: the processes it starts, one after another, each within PROCESS_MS. */
export const forProcesses = (count: number): number => count * PROCESS_MS + 10_000;

/** Runs the narrowgauge CLI as a user does (its own process, stdout and stderr not terminals), killed past PROCESS_MS. */
export async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "cli", "narrowgauge.ts"), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      maxBuffer: 32 * 1024 * 1024,
      timeout: PROCESS_MS,
      killSignal: "SIGKILL",
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | null; signal?: string | null; stdout: string; stderr: string };
    return { code: failed.code ?? (failed.signal ? 128 : 1), stdout: failed.stdout, stderr: failed.stderr };
  }
}
