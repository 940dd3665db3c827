/** A small seeded PRNG (mulberry32): the harness must generate the same cases for the same seed on any machine. */

export interface Random {
  /** Uniform in [0, 1). */
  readonly next: () => number;
  /** Integer in [min, max], both included. */
  readonly int: (min: number, max: number) => number;
  readonly pick: <T>(items: readonly T[]) => T;
  readonly chance: (p: number) => boolean;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[int(0, items.length - 1)]!;
  };
  return { next, int, pick, chance: (p) => next() < p };
}

/** A seed derived from a base seed and a case index, so that case N can be regenerated alone. */
export const caseSeed = (seed: number, index: number): number =>
  (Math.imul(seed, 0x01000193) ^ (index * 0x9e3779b1)) >>> 0;
