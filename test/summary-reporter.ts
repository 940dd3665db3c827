/**
 * Prints one plain closing line, `N passed, N failed` (plus skipped), after vitest's own summary: a form that
 * CI systems read without knowing vitest's output.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A file that failed to load has no tests to count but must not read as a clean run.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`);
  }
}
