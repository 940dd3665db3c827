/**
 * The shape every bench section has, so that run.ts can list them, run a subset (`--only NAME`) and print them
 * side by side. A later section (loop overhead) plugs in by exporting one more `Section` and adding it to the
 * list in run.ts.
 */

/** One target printed beside its measured figure. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

export interface SectionReport {
  /** Markdown (headings, tables, notes) for the human-readable run. */
  readonly markdown: string;
  /** Machine-readable figures for `--json`. */
  readonly figures: unknown;
  readonly targets: readonly TargetCheck[];
  /** Things that went wrong or were slow, with case ids: also listed together at the end of the run. */
  readonly findings: readonly string[];
}

export interface SectionContext {
  /** Progress lines for the impatient; goes to stderr so that stdout stays a clean table or JSON document. */
  readonly log: (line: string) => void;
}

export interface Section {
  /** The name `--only` selects. */
  readonly name: string;
  readonly run: (context: SectionContext) => Promise<SectionReport>;
}
