import { getLlama, type Llama } from "node-llama-cpp";

let llama: Promise<Llama> | undefined;

/** One CPU-only binding per test worker: deterministic, and no GPU probing noise. */
export function testLlama(): Promise<Llama> {
  llama ??= getLlama({ gpu: false, build: "never" });
  return llama;
}
