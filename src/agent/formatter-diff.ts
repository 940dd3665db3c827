/**
 * What the project's own formatter would change in the files its failed check named (formatter-check.ts), asked
 * in the sandbox as the tests run, as a unified diff the model can follow.
 */
import { createTwoFilesPatch } from "diff";
import { isCredentialPath } from "../core/credential-files.js";
import { readText } from "./apply-step.js";
import { relativize } from "./failures/index.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { formatterComplaints, showCommand, type FormatterComplaint } from "./formatter-check.js";
import { cacheMount, runRequest, type RunPlace } from "./run-place.js";

/** A formatter starts in well under this; one that does not is not worth waiting for. */
const FORMATTER_TIMEOUT_MS = 60_000;
/** The diffs the model is shown, at most: enough for what a formatter changes around an edit. */
export const MAX_FORMATTING_CHARS = 2_000;

/** A unified diff of `before` → `after` for `path`, or undefined when they are equal. */
function unifiedDiff(path: string, before: string, after: string): string | undefined {
  if (before === after) return undefined;
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 2 });
  // jsdiff starts with an "=====" rule meant for output of several files.
  return patch.replace(/^=+\n/, "").trimEnd();
}

/** The diff of one complaint's files, or undefined when the formatter cannot be run or changes nothing. */
async function diffOf(
  deps: FixDeps,
  place: RunPlace,
  tree: WorkTree,
  complaint: FormatterComplaint,
): Promise<string | undefined> {
  const paths = complaint.paths.filter((p) => !isCredentialPath(p));
  if (paths.length === 0) return undefined;
  const run = (command: string) =>
    deps.runner.run({ ...runRequest(place), ...cacheMount(place, false), command, timeoutMs: FORMATTER_TIMEOUT_MS });
  if (complaint.formatter !== "prettier") {
    const result = await run(showCommand(complaint.formatter, paths, complaint.options));
    // isort names files by their absolute paths in the clone.
    const diff = relativize(result.output, place.sandbox.dir).trimEnd();
    return /^@@ /m.test(diff) ? diff : undefined;
  }
  const diffs: string[] = [];
  for (const path of paths) {
    const before = await readText(tree, path);
    if (before === undefined) continue;
    const result = await run(showCommand("prettier", [path]));
    // 127: no Prettier in the clone's node_modules.
    if (result.exitCode === 127) break;
    if (!result.passed || result.droppedBytes > 0) continue;
    const diff = unifiedDiff(path, before, result.output);
    if (diff !== undefined) diffs.push(diff);
  }
  return diffs.length === 0 ? undefined : diffs.join("\n");
}

/** A failed run: its command line and what it printed. */
export interface FailedRun {
  readonly command: string;
  readonly output: string;
}

/**
 * What the formatters whose checks failed in `failed` would change, each under a line naming it, within
 * MAX_FORMATTING_CHARS; undefined when no check named a file or no formatter could say.
 */
export async function formattingFor(
  deps: FixDeps,
  place: RunPlace,
  tree: WorkTree,
  failed: readonly FailedRun[],
): Promise<string | undefined> {
  const complaints = failed.flatMap((run) => formatterComplaints(run.output, place.sandbox.dir, run.command));
  const parts: string[] = [];
  for (const complaint of complaints) {
    const diff = await diffOf(deps, place, tree, complaint);
    if (diff !== undefined) parts.push(`${complaint.formatter} would write ${complaint.paths.join(", ")} so:\n${diff}`);
  }
  if (parts.length === 0) return undefined;
  const text = parts.join("\n\n");
  return text.length <= MAX_FORMATTING_CHARS ? text : `${text.slice(0, MAX_FORMATTING_CHARS)}\n… (cut)`;
}
