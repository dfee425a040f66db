import { SeededRandom } from "../../runtime/gguf/seeded-random.js";

/** The built-in model's seeded generator, with the draws a data set needs: a data set is a function of its seed. */
export class Random extends SeededRandom {
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<Item>(items: readonly Item[]): Item {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}
