import type { LlamaText } from "node-llama-cpp";
import { plainLlamaText, plainTextLike, sliceLlamaText } from "../history/llama-text-slice.js";
import type { ModelPort } from "../engine/model-port.js";

/**
 * How a model writes a rendered frame's text: as plain text, with the
 * control tokens a generation can write, or not at all (a token that ends
 * generation, or one no generation writes).
 */

/** What reading a frame needs of a model: its chat renderer, and its tokenizer. */
export type FrameModel = Pick<ModelPort, "chatRenderer" | "tokenize" | "detokenizeForSpy" | "writesControlToken">;

const sameTokens = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((token, index) => token === b[index]);

/**
 * The control tokens (by text) a generation writes this text with, as the
 * template's rendering tokenizes it: none for text that tokenizes the same
 * with special tokens recognised as without; those the model port writes
 * (ModelPort.writesControlToken) where the text between them tokenizes as
 * plain text; null where it holds a token no generation writes (one that
 * ends generation, a built-in one, or any where the port writes none).
 */
export function writtenWith(model: FrameModel, text: LlamaText): string[] | null {
  const plain = plainLlamaText(text);
  if (plain === null) return null;
  const tokens = model.tokenize(text);
  if (sameTokens(tokens, model.tokenize(plain))) return [];
  if (!model.writesControlToken) return null;
  const string = text.toString();
  const plainTokens = (part: string) => (part === "" ? [] : model.tokenize(plainTextLike(text, part)));
  const expected: number[] = [];
  const controls: string[] = [];
  let from = 0;
  for (const token of tokens) {
    if (!model.writesControlToken(token)) continue;
    const piece = model.detokenizeForSpy([token]);
    const at = string.indexOf(piece, from);
    if (piece === "" || at < 0) return null;
    expected.push(...plainTokens(string.slice(from, at)), token);
    controls.push(piece);
    from = at + piece.length;
  }
  expected.push(...plainTokens(string.slice(from)));
  return sameTokens(tokens, expected) ? controls : null;
}

/** How much of `text` comes before its first token no generation writes (an end-of-turn token, say). */
export function writablePrefixLength(model: FrameModel, text: LlamaText): number {
  if (writtenWith(model, text)) return text.toString().length;
  let length = 0;
  for (const token of model.tokenize(text)) {
    const piece = model.detokenizeForSpy([token]);
    if (!writtenWith(model, sliceLlamaText(text, length, length + piece.length))) break;
    length += piece.length;
  }
  return text.toString().startsWith(model.detokenizeForSpy(model.tokenize(sliceLlamaText(text, 0, length)))) ? length : 0;
}
