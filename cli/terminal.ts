/**
 * What the CLI writes where: results and transcripts to stdout, progress to
 * stderr only when it is a terminal, colour only where the usual conventions
 * allow it (NO_COLOR set: never; FORCE_COLOR set: always; else when the
 * stream is a terminal).
 */
export function colourOn(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY);
}

export interface Paint {
  dim(text: string): string;
  bold(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

export function paint(stream: NodeJS.WriteStream): Paint {
  const on = colourOn(stream);
  const code = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return { dim: code(2, 22), bold: code(1, 22), green: code(32, 39), red: code(31, 39), yellow: code(33, 39) };
}

/** A line of progress on stderr, rewritten in place; nothing at all when stderr is not a terminal. */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): { update(text: string): void; done(): void } {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let shown = false;
  return {
    update(text) {
      shown = true;
      stream.write(`\r\u001b[2K${text}`);
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
    },
  };
}

/** "1 m 05 s" style time left, from work done so far. */
export function eta(done: number, total: number, elapsedMs: number): string {
  if (done === 0) return "…";
  const seconds = Math.round(((total - done) * elapsedMs) / done / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)} m ${String(seconds % 60).padStart(2, "0")} s` : `${seconds} s`;
}
