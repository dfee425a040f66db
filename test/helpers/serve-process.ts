import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { PROCESS_MS, ROOT } from "./cli.js";

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends a signal to the whole process group (tsx runs the CLI in a child process of its own). */
  kill(signal: NodeJS.Signals): void;
  /** Stops it (SIGTERM, then SIGKILL past 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** `narrowgauge serve` in its own process, as a user starts it; resolves with the URL it prints, or rejects with its stderr if it exits first or takes longer than PROCESS_MS. */
export function startServeProcess(...args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "cli", "narrowgauge.ts"), "serve", "--port", "0", ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Gone already.
    }
  };
  let stdout = "";
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return kill("SIGKILL");
    kill("SIGTERM");
    const timer = setTimeout(() => kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`narrowgauge serve printed no URL within ${PROCESS_MS} ms: ${stderr}`));
    }, PROCESS_MS);
    child.stderr!.on("data", (piece: Buffer) => (stderr += piece.toString()));
    child.stdout!.on("data", (piece: Buffer) => {
      stdout += piece.toString();
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) {
        clearTimeout(timer);
        resolve({ url: line.trim(), child, kill, stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`narrowgauge serve exited (${code}) before printing its URL: ${stderr}`));
    });
  });
}
