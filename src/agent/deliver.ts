/**
 * Nothing thrown away, nothing reported that does not exist. A run that made commits and does not push leaves them
 * somewhere its caller can reach: fetched into the local repository it was asked about (refs only: the working
 * tree, index and HEAD stay as they are), or, for a URL, in the clone, which is then kept and named.
 */
import { isRemoteUrl } from "../core/repo-location.js";
import type { Sandbox } from "../ports/git-sandbox.js";
import type { FixReport, FixRequest } from "./types.js";

const MAX_SUFFIX = 100;

/** The default branch name, or the first of `name-2`, `name-3`, … that the origin does not have yet. */
export async function freshBranch(sandbox: Sandbox, name: string): Promise<string> {
  if (!(await sandbox.branchExistsOnOrigin(name))) return name;
  for (let n = 2; n <= MAX_SUFFIX; n++) {
    const candidate = `${name}-${String(n)}`;
    if (!(await sandbox.branchExistsOnOrigin(candidate))) return candidate;
  }
  return `${name}-${Date.now().toString(36)}`;
}

export interface Delivered {
  readonly report: FixReport;
  /** Keep the clone: the commits live only there. */
  readonly keep: boolean;
}

const isPushing = (request: FixRequest): boolean => request.push !== undefined && request.push !== false;

export async function deliverCommits(request: FixRequest, sandbox: Sandbox, report: FixReport): Promise<Delivered> {
  if (report.commits.length === 0 || report.pushed || isPushing(request) || request.noCommit === true) {
    return { report, keep: false };
  }
  const notes = [...(report.notes ?? [])];
  if (!isRemoteUrl(request.repo)) {
    const fetched = await sandbox.fetchInto(request.repo, report.branch);
    if (fetched.ok) {
      notes.push(
        `The branch \`${report.branch}\` is in ${request.repo} (fetched into it; its working tree, index and HEAD ` +
          "were not touched). Pass --push to push it to the origin instead.",
      );
      return { report: { ...report, notes, delivered: "local-repository" }, keep: false };
    }
    notes.push(
      `The branch \`${report.branch}\` could not be fetched into ${request.repo} (${fetched.message ?? "unknown error"}); ` +
        "the clone holding it was kept.",
    );
    return { report: { ...report, notes, delivered: "kept-clone" }, keep: true };
  }
  notes.push(`Nothing was pushed (pass --push to push): the branch \`${report.branch}\` is in the kept clone.`);
  return { report: { ...report, notes, delivered: "kept-clone" }, keep: true };
}
