/**
 * Base class of every error narrowgauge raises or returns. Subclasses carry
 * their evidence as fields so callers never match on message text.
 */
export abstract class NarrowgaugeError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
