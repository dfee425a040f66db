/**
 * Base class of every error narrowgauge throws or returns. Subclasses carry
 * their evidence as fields so callers never match on message text, a
 * `code` from their own small set, and what the error means for a run:
 * `endsRun` is true for an error that stops it (or never lets it start: a
 * configuration error is thrown before any model call), false for one the
 * model is shown as its turn's outcome while the run goes on (what it wrote
 * was unusable, or refused).
 */
export abstract class NarrowgaugeError extends Error {
  abstract readonly code: string;
  abstract readonly endsRun: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
