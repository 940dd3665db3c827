/**
 * Where a run's time went, by phase (milliseconds): for the `--json` report, the App's logs and the loop-overhead
 * benchmark. Phases that overlap (the baseline tests and the context gathering run side by side) each count their
 * own time, so the phases may add up to more than the whole.
 */
export type Phase =
  "clone" | "setup" | "baseline" | "context" | "model" | "apply" | "tests" | "commit" | "push" | "report" | "cleanup";

export type PhaseTimings = Partial<Record<Phase | "total", number>>;

export class Timings {
  private readonly spent = new Map<Phase, number>();

  constructor(private readonly now: () => number) {}

  add(phase: Phase, ms: number): void {
    this.spent.set(phase, (this.spent.get(phase) ?? 0) + ms);
  }

  async measure<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      return await work();
    } finally {
      this.add(phase, this.now() - started);
    }
  }

  snapshot(totalMs: number): PhaseTimings {
    const out: PhaseTimings = {};
    for (const [phase, ms] of this.spent) out[phase] = Math.round(ms);
    out.total = Math.round(totalMs);
    return out;
  }
}
