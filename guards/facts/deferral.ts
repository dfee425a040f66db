/**
 * A1: the free first check on a final answer. A small model defers instead
 * of answering ("I can search for the current price if you'd like") and a
 * loop that reads any reply without a tool call as done accepts it. These
 * shapes cost nothing to catch. Every pattern needs a first-person
 * subject, because "you can check their site" is advice, not a deferral; and
 * only the first 240 characters are read, because an answer that does the
 * work and then offers more has answered.
 */
export const DEFERRAL_WINDOW = 240;

export interface DeferralPattern {
  id: string;
  /** What the shape is, for the trace. */
  description: string;
  pattern: RegExp;
}

export const DEFERRAL_PATTERNS: readonly DeferralPattern[] = [
  {
    id: "offers-to-look",
    description: "offers to search, look up or check",
    pattern: /\b(?:let me|i'?ll|i will|i'?m going to|i am going to|i can|i could)\s+(?:go\s+)?(?:and\s+)?(?:quickly\s+)?(?:search|look(?:\s+it)?\s*up|look|check|find|fetch|browse|google|verify)\b/i,
  },
  {
    id: "asks-permission",
    description: "asks whether it should go and look",
    pattern: /\b(?:would you like me to|do you want me to|shall i|should i|want me to)\b/i,
  },
  {
    id: "claims-no-access",
    description: "claims it has no access to current data",
    pattern: /\bi (?:do not|don'?t|cannot|can'?t|am unable to|am not able to|have no)\s+(?:have\s+)?(?:(?:access(?:\s+to)?|browse|check|look up|retrieve|get|provide)\s+)?(?:to\s+)?(?:the\s+)?(?:real[- ]?time|current|live|up[- ]to[- ]date|today'?s|latest|recent|the internet|internet)\b/i,
  },
  {
    id: "cites-training-cutoff",
    description: "cites its training data or knowledge cutoff",
    pattern: /\b(?:my (?:training(?: data)?|knowledge)(?: cut-?off)?\s+(?:only\s+)?(?:goes|cuts off|ends|extends|is limited)|as of my (?:last )?(?:training|knowledge)(?: cut-?off| update)?)\b/i,
  },
];

export interface Deferral {
  id: string;
  description: string;
  match: string;
}

export function detectDeferral(answer: string): Deferral | null {
  const window = answer.slice(0, DEFERRAL_WINDOW);
  for (const { id, description, pattern } of DEFERRAL_PATTERNS) {
    const match = pattern.exec(window);
    if (match) return { id, description, match: match[0] };
  }
  return null;
}
