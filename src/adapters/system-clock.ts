/** The real Clock: wall time and timers. */
import type { Clock } from "../ports/clock.js";

export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        setTimeout(resolve, Math.max(0, ms));
      }),
  };
}

export const systemClock: Clock = createSystemClock();
