/**
 * The tools the speed section compares, each behind one small interface: set up (untimed), reset (untimed, before
 * every run), run (timed), read the outcome (for the byte-for-byte check), clean up.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { applyPatch } from "diff";
import { applyInMemory, applyOnDisk } from "./patchsmith.js";
import { withoutLineNumbers } from "./diffs.js";
import type { PatchScenario } from "./diffs.js";

/** What a tool left behind: the new bytes of the file, or a refusal (with whatever reason it gave). */
export type ToolOutcome =
  { readonly kind: "applied"; readonly output: string } | { readonly kind: "refused"; readonly why: string };

export interface PreparedTool {
  readonly reset?: () => void;
  readonly run: () => unknown;
  /** The outcome of the last run. */
  readonly outcome: () => ToolOutcome;
  readonly cleanup: () => void;
}

export interface Tool {
  readonly name: string;
  /** Fewer repetitions for tools that start a process per run. */
  readonly slow: boolean;
  readonly prepare: (scenario: PatchScenario) => PreparedTool;
}

/** Model replies arrive fenced; the diff inside is byte for byte the one the other tools get. */
export const asReply = (diff: string): string => "Here is the change.\n\n```diff\n" + diff + "```\n";

function tempTree(scenario: PatchScenario): { root: string; file: string; restore: () => void; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "patchsmith-bench-"));
  const file = join(root, scenario.path);
  mkdirSync(dirname(file), { recursive: true });
  const restore = (): void => {
    writeFileSync(file, scenario.before);
  };
  restore();
  const cleanup = (): void => {
    rmSync(root, { recursive: true, force: true });
  };
  return { root, file, restore, cleanup };
}

const inMemory = (name: string, rewrite: (diff: string) => string): Tool => ({
  name,
  slow: false,
  prepare: (scenario) => {
    const reply = asReply(rewrite(scenario.diff));
    let last: ToolOutcome = { kind: "refused", why: "not run" };
    return {
      run: async () => {
        last = await applyInMemory(reply, scenario.path, scenario.before);
      },
      outcome: () => last,
      cleanup: () => undefined,
    };
  },
});

const patchsmithDisk: Tool = {
  name: "patchsmith applyReply (disk)",
  slow: false,
  prepare: (scenario) => {
    const tree = tempTree(scenario);
    const reply = asReply(scenario.diff);
    let refusal: string | undefined;
    return {
      reset: tree.restore,
      run: async () => {
        refusal = await applyOnDisk(reply, tree.root);
      },
      outcome: () =>
        refusal === undefined
          ? { kind: "applied", output: readFileSync(tree.file, "utf8") }
          : { kind: "refused", why: refusal },
      cleanup: tree.cleanup,
    };
  },
};

const jsdiff: Tool = {
  name: "diff applyPatch (fuzz 0)",
  slow: false,
  prepare: (scenario) => {
    let last: string | false = false;
    return {
      run: () => (last = applyPatch(scenario.before, scenario.diff, { fuzzFactor: 0 })),
      outcome: () => (last === false ? { kind: "refused", why: "returned false" } : { kind: "applied", output: last }),
      cleanup: () => undefined,
    };
  },
};

const gitApply: Tool = {
  name: "git apply (incl. process start)",
  slow: true,
  prepare: (scenario) => {
    const tree = tempTree(scenario);
    const patchFile = join(tree.root, "..", `${tree.root.split("/").pop() ?? "bench"}.diff`);
    writeFileSync(patchFile, scenario.diff);
    let status: number | null = null;
    let stderr = "";
    return {
      reset: tree.restore,
      run: () => {
        // The tree is not a repository: git apply then works like patch(1) on the working files.
        const result = spawnSync("git", ["apply", patchFile], { cwd: tree.root, encoding: "utf8" });
        status = result.status;
        stderr = result.stderr;
      },
      outcome: () =>
        status === 0
          ? { kind: "applied", output: readFileSync(tree.file, "utf8") }
          : { kind: "refused", why: stderr.trim().split("\n")[0] ?? `exit ${status}` },
      cleanup: () => {
        tree.cleanup();
        rmSync(patchFile, { force: true });
      },
    };
  },
};

export const TOOLS: readonly Tool[] = [
  inMemory("patchsmith (in memory)", (diff) => diff),
  inMemory("patchsmith (in memory, bare @@ @@)", withoutLineNumbers),
  patchsmithDisk,
  jsdiff,
  gitApply,
];
export const gitVersion = (): string => spawnSync("git", ["--version"], { encoding: "utf8" }).stdout.trim();
