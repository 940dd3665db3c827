/** Runs a repository's test command in a sandbox: no secrets, no network, a timeout, the process tree killed. */
import type { TestSummary } from "../agent/types.js";

export interface TestRunRequest {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Maximum bytes of output kept (the tail). */
  readonly maxOutputBytes?: number;
}

export interface TestRunner {
  run(request: TestRunRequest): Promise<TestSummary>;
}
