/**
 * Where a model turn's text begins in `rendered`, a conversation that goes
 * on past `prompt` (the same conversation up to its generation prompt):
 * right after `prompt` where the rendering extends it; else, for a template
 * that moves text once the model has answered (Mistral Nemo shows the
 * system text only while the last message is the user's), after the last
 * user message's text and the generation prompt, found once in `rendered`.
 * Null where neither is found.
 */
export function stepStart(prompt: string, rendered: string, lastUserText: string): number | null {
  if (rendered.startsWith(prompt)) return prompt.length;
  const userAt = prompt.lastIndexOf(lastUserText);
  if (userAt < 0) return null;
  const tail = prompt.slice(userAt);
  const at = rendered.indexOf(tail);
  if (at < 0 || rendered.indexOf(tail, at + 1) >= 0) return null;
  return at + tail.length;
}
