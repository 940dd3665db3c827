/**
 * Resuming a request an earlier run already pushed. A queued job that was running when its process died runs
 * again after a restart; if the first run had pushed its commits before it died, doing the work again would stack
 * a second round of commits on the branch. Every commit of a request carries the request's own trailer (the App:
 * `Patchsmith-Job: <job id>`), so the clone of the branch shows whether that happened: then those commits are the
 * result, reported as pushed, and nothing is redone.
 */
import type { Sandbox } from "../ports/git-sandbox.js";
import { emptyUsage } from "./finish.js";
import type { CommitInfo, FixReport } from "./types.js";

/** How far back the branch is searched: one request makes a few commits, on top of at most a few others. */
const RECENT_COMMITS = 50;

export interface Trailer {
  readonly key: string;
  readonly value: string;
}

export interface EarlierRun {
  /** Its commits on the branch, oldest first. */
  readonly commits: readonly CommitInfo[];
  /** The commit it started from (the parent of its first commit), when that is among the commits read. */
  readonly from?: string;
}

/** The earlier run of the request that left its commits on the branch (they carry `trailer`), if any. */
export async function earlierRun(sandbox: Sandbox, trailer: Trailer): Promise<EarlierRun | undefined> {
  const line = `${trailer.key}: ${trailer.value}`;
  const recent = await sandbox.log("HEAD", RECENT_COMMITS);
  const marked = recent.flatMap((c, i) => (c.body.split("\n").some((l) => l.trim() === line) ? [i] : []));
  if (marked.length === 0) return undefined;
  const from = recent[marked[marked.length - 1]! + 1]?.sha;
  const commits = marked
    .map((i) => recent[i]!)
    .map((c) => ({ sha: c.sha, subject: c.subject, message: `${c.subject}\n\n${c.body}\n` }))
    .reverse();
  return { commits, ...(from === undefined ? {} : { from }) };
}

/** The report of a request whose commits an earlier run pushed: they are the result; nothing was redone. */
export async function resumedReport(sandbox: Sandbox, branch: string, earlier: EarlierRun): Promise<FixReport> {
  const { commits } = earlier;
  const first = commits[0]!;
  let diff = { patch: "", stat: "" };
  try {
    diff = await sandbox.diff(`${first.sha}^`, sandbox.baseSha);
  } catch {
    // The first commit has no parent (a branch that starts with it): there is nothing to compare it with.
  }
  return {
    status: "success",
    branch,
    baseSha: sandbox.baseSha,
    headSha: sandbox.baseSha,
    commits,
    attempts: [],
    tests: { before: null, after: null },
    usage: emptyUsage,
    diffStat: diff.stat,
    diff: diff.patch,
    changedFiles: [],
    pushed: true,
    ...(earlier.from === undefined ? {} : { resumedFrom: earlier.from }),
    notes: [
      `An earlier run of this request pushed ${commits.length === 1 ? "this commit" : `these ${String(commits.length)} commits`} to \`${branch}\` and was interrupted before it finished; nothing was done again.`,
    ],
  };
}
