/**
 * How a job ended, as data: the worker decides it, render-comment and render-check turn it into Markdown for the
 * progress comment and the check run (the same facts in both places).
 */
import type { FixReport, FixStage } from "../agent/types.js";
import type { Denial } from "../github/authorize.js";

export interface CommitLink {
  readonly sha: string;
  readonly subject: string;
  readonly url: string;
}

export type Delivery =
  /** Commits pushed to the branch (the PR head, or `patchsmith/issue-N` with its pull request). */
  | {
      readonly kind: "pushed";
      readonly branch: string;
      readonly commits: readonly CommitLink[];
      readonly pull?: { readonly number: number; readonly url: string; readonly created: boolean };
    }
  /** A suggestion block posted as a reply in the review thread. */
  | { readonly kind: "suggestion"; readonly replyUrl: string }
  /** The diff in the comment (fork without maintainer edits, or a change a suggestion cannot express). */
  | { readonly kind: "patch"; readonly why: string };

export type Stop =
  | "head-moved"
  | "push-race"
  | "pull-closed"
  | "fork-no-push"
  | "suggest-needs-review-comment"
  | "nothing-to-undo"
  | "undo-conflict"
  | "branch-missing";

export type Outcome =
  | { readonly kind: "fixed"; readonly report: FixReport; readonly delivery: Delivery }
  /** The loop ran and did not succeed (exhausted or failed): the model-readable failure. */
  | { readonly kind: "not-fixed"; readonly report: FixReport }
  /** Work stopped before or after the loop for a reason people should act on. */
  | { readonly kind: "stopped"; readonly stop: Stop; readonly detail: string; readonly report?: FixReport }
  | {
      readonly kind: "undone";
      readonly branch: string;
      readonly reverted: CommitLink;
      readonly revert: CommitLink;
    }
  | { readonly kind: "config-error"; readonly message: string }
  | { readonly kind: "denied"; readonly reason: Denial; readonly login: string; readonly permission: string }
  /** An unexpected error (a bug or an outage): said plainly instead of leaving the comment at "working". */
  | { readonly kind: "error"; readonly message: string };

/** What the progress comment shows while the job runs. */
export interface Progress {
  readonly command: string;
  readonly requester: string;
  readonly stage: FixStage;
  readonly detail?: string;
  /** Jobs ahead of this one on the same issue or pull request. */
  readonly waitingBehind?: number;
}

export function isSuccess(outcome: Outcome): boolean {
  return outcome.kind === "fixed" || outcome.kind === "undone";
}
