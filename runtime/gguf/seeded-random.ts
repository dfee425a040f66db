import { ConfigurationError } from "../../base/configuration-error.js";
/**
 * A small deterministic PRNG (mulberry32) with a Gaussian helper.
 * The tiny model's weights must be a pure function of its seed, on every
 * platform and Node version, so we do not use Math.random.
 */
export class SeededRandom {
  private state: number;
  private spareGaussian: number | null = null;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new ConfigurationError("seed", `seed must be an integer in [0, 2^32): ${seed}`);
    }
    // Mix the seed so that neighbouring seeds give unrelated streams.
    this.state = (seed ^ 0x9e3779b9) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal sample (Box–Muller, pairs cached). */
  gaussian(): number {
    if (this.spareGaussian !== null) {
      const spare = this.spareGaussian;
      this.spareGaussian = null;
      return spare;
    }
    const u = Math.max(this.next(), Number.EPSILON);
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareGaussian = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }
}
