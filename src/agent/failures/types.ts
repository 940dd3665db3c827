/** A failing test as a runner reported it: its name (stable across runs) and the lines that say why. */
export interface FailureBlock {
  readonly name: string;
  /** The assertion, expected and actual, the first stack frames in the repository; bounded. */
  readonly text: string;
  /** The test file, where the runner says which. */
  readonly file?: string;
  /** The test file could not be loaded, so none of its tests ran. */
  readonly notRun?: boolean;
}

/** One test runner's output format. */
export interface RunnerFormat {
  readonly runner: string;
  /** True when the output (ANSI colours removed, split in lines) is this runner's. */
  detect(lines: readonly string[], text: string): boolean;
  parse(lines: readonly string[]): FailureBlock[];
  /** True when the output says the run stopped before running any test (a file it could not load). */
  stoppedEarly?(lines: readonly string[]): boolean;
}
