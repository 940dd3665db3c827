/**
 * runProcess with real child processes: what a command prints reaches the result whole, however slowly the service
 * gets to read it.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProcess } from "../../../src/adapters/sandbox/process.js";

/** Keeps the service's event loop busy, as a long engine search or a loaded machine does. */
function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy on purpose.
  }
}

const base = { cwd: tmpdir(), outputDir: tmpdir(), env: { PATH: process.env.PATH ?? "" }, timeoutMs: 60_000 };

describe("runProcess", () => {
  it("keeps every line a Node program printed before process.exit(), though the service read nothing meanwhile", async () => {
    // Node queues writes to a pipe or socket the reader has not drained, and process.exit() drops the queue.
    const program = "for (let i = 1; i <= 5000; i++) console.log('line ' + i); process.exit(3);";
    const outcome = await runProcess({
      ...base,
      argv: [process.execPath, "-e", program],
      maxOutputBytes: 1024 * 1024,
      onStarted: () => {
        setTimeout(() => {
          blockFor(1_500);
        }, 0);
        return Promise.resolve();
      },
    });
    expect(outcome.exitCode).toBe(3);
    const lines = outcome.output.trimEnd().split("\n");
    expect(lines).toHaveLength(5000);
    expect(lines.at(-1)).toBe("line 5000");
    expect(outcome.droppedBytes).toBe(0);
  });

  it("keeps the tail of stdout and stderr in the order written, and leaves no file in its folder", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "patchsmith-output-"));
    try {
      const script = "printf 'out1\\n'; printf 'err1\\n' >&2; printf 'é%.0s' $(seq 100); ls -A \"$1\"";
      const outcome = await runProcess({
        ...base,
        outputDir,
        argv: ["/bin/sh", "-c", script, "sh", outputDir],
        maxOutputBytes: 11,
      });
      expect(outcome.exitCode).toBe(0);
      // The last 11 bytes start inside an "é" (2 bytes): that half is dropped. The folder was empty when listed.
      expect(outcome.output).toBe("ééééé");
      expect(outcome.droppedBytes).toBe(5 + 5 + 200 - 11);
      expect(readdirSync(outputDir)).toEqual([]);
    } finally {
      rmSync(outputDir, { recursive: true, force: true });
    }
  });
});
