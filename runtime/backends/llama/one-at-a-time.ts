/**
 * Runs tasks one after another, in the order they were queued. Generations on
 * different sequences of one context go through one of these: llama.cpp would
 * otherwise decode them in shared batches, which changes the floating-point
 * sums enough to flip greedy choices (measured with six concurrent runs: four
 * on the Llama-2 fixture and one on tiny:7 differed from the same runs one at
 * a time; with turns taken, none did). Runs still
 * overlap everything else: tool calls, rendering, waiting on the caller.
 */
export class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();

  run<Value>(task: () => Promise<Value>): Promise<Value> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
