/**
 * The contract of the fix loop (`patchsmith fix`, and the GitHub App's worker). The loop's implementation may add
 * optional fields; it must not remove or rename these.
 */

import type { Identity } from "../ports/git-sandbox.js";
import type { FormatName } from "../core/edit.js";
import type { LimitHit } from "../ports/sandbox-runner.js";
import type { ContextReason } from "./context/gather.js";
import type { FailureBlock } from "./failures/types.js";
import type { SetupReport } from "./setup-step.js";
import type { PhaseTimings } from "./timings.js";

export type FixStatus = "success" | "exhausted" | "failed";

/** Where the job is, for the progress comment and the CLI's stderr. */
export type FixStage =
  | "queued"
  | "cloning"
  | "setting-up"
  | "testing-before"
  | "asking-model"
  | "applying"
  | "testing"
  | "committing"
  | "pushing"
  | "done";

export type { Identity } from "../ports/git-sandbox.js";

export interface FixRequest {
  /** A local path or a clone URL. */
  readonly repo: string;
  /** Branch to start from; default: the remote's default branch. */
  readonly branch?: string;
  /** Branch the commits go on; default `patchsmith/<slug of the instruction>`. Equal to `branch` to continue it. */
  readonly into?: string;
  readonly instruction: string;
  /** Untrusted extra text (issue body, PR thread): wrapped as data in the prompt. */
  readonly context?: string;
  /** A review comment's lines: the focus of the change. 1-based, inclusive. */
  readonly focus?: { readonly path: string; readonly startLine: number; readonly endLine: number };
  readonly testCommand?: string;
  /** Set-up commands (`--setup`); false: no set-up at all (`--no-setup`); default: the repo config's, else detected. */
  readonly setup?: readonly string[] | false;
  /** Set-up commands from the repo config (the App reads it from the default branch; [] turns detection off). */
  readonly configuredSetup?: readonly string[];
  /** Variables for set-up and tests (the repo config's `env`). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Names the repository's package cache (one per repository, so one cannot poison another's); default: derived from
   * `repo`. The App passes the repository a pull request comes from.
   */
  readonly cacheKey?: string;
  readonly model?: string;
  /**
   * The edit dialect the model is taught; default: the operator's choice for the model (PATCHSMITH_MODELS_FILE), else
   * SEARCH/REPLACE. Replies in any dialect are read.
   */
  readonly editFormat?: FormatName;
  readonly maxAttempts?: number;
  readonly tokenBudget?: number;
  readonly wallTimeMs?: number;
  /** "Name <email>" of the person who asked. */
  readonly coAuthor?: string;
  /** Extra commit trailers, e.g. { "Patchsmith-Request": "https://…/issues/1#issuecomment-2" }. */
  readonly trailers?: Readonly<Record<string, string>>;
  readonly botIdentity?: Identity;
  /**
   * Push the branch to the origin. `lease` is the SHA the remote branch must still have (never forced);
   * `null` means the branch must not exist yet.
   */
  readonly push?: false | { readonly lease: string | null };
  /**
   * Called just before the push with the lease and the head about to be pushed, so the caller can note it durably
   * first (a crash right after the push must not leave it unrecorded). A failure stops the push.
   */
  readonly beforePush?: (push: { readonly from: string | null; readonly to: string }) => Promise<void>;
  /** Do not commit at all: apply and test only, and report the diff (suggestions, patches for forks). */
  readonly noCommit?: boolean;
  /** Leave the clone on disk and report its path. */
  readonly keep?: boolean;
  /** Globs the model may not touch (default DEFAULT_FORBIDDEN in config/repo-config.ts). */
  readonly forbiddenPaths?: readonly string[];
  /** Token for HTTP clone and push, passed per command, never written into `.git/config`. */
  readonly token?: string;
  readonly onProgress?: (stage: FixStage, detail?: string) => void;
  /**
   * Read `.github/patchsmith.yml` in the clone (default true, for the CLI): its test command, model, budgets and
   * forbidden paths fill in what the request leaves unset (repo-settings.ts); a broken file fails the run before
   * the model is asked. The GitHub App passes false: its settings come from the default branch only, never from a
   * branch that whoever opened the pull request controls.
   */
  readonly readRepoConfig?: boolean;
  /**
   * A trailer that is also in `trailers` and names this request alone (the App: `Patchsmith-Job: <job id>`). When
   * the cloned branch's recent commits already carry it, an earlier run of this same request pushed them and was
   * interrupted: they are reported as the result and nothing is redone (resume.ts).
   */
  readonly resumeTrailer?: { readonly key: string; readonly value: string };
  /** Timeout of one test run (default 5 minutes), also bounded by what is left of `wallTimeMs`. */
  readonly testTimeoutMs?: number;
  /**
   * Ask for a test that reproduces the bug and check it fails before the fix and passes after. Default: when the
   * instruction reads like a bug report.
   */
  readonly reproduce?: boolean;
}

export interface TestSummary {
  readonly command: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Names of failing tests when the runner's output could be read (all of them, up to 10,000); else empty. */
  readonly failing: readonly string[];
  /**
   * Why each of them failed (assertion, expected and actual, first frames in the repository), when read; a report
   * keeps the first hundred (`summaryForReport`).
   */
  readonly failures?: readonly FailureBlock[];
  /** The last part of the output (capped). */
  readonly tail: string;
  readonly durationMs: number;
  /** A sandbox limit the run ran into (memory, processes, CPU time). */
  readonly limit?: LimitHit;
  /** Test files that could not be loaded, so none of their tests ran. */
  readonly notRun?: NotRun;
  /**
   * For a command run step by step (npm's `pretest`, `test`, `posttest`), each step in order; `failing` and
   * `failures` are read from the outputs of the steps that run tests alone.
   */
  readonly steps?: readonly TestStepRun[];
  /** When a formatter's check failed: what the formatter would change in the files it named, as diffs (bounded). */
  readonly formatting?: string;
}

/** Test files a run could not load: their tests did not run; with `all`, no test ran at all. */
export interface NotRun {
  readonly all: boolean;
  readonly files: readonly string[];
}

/** One step of a test command run step by step. */
export interface TestStepRun {
  readonly command: string;
  /** A step that runs tests; the others (a lint, a build, an audit) are judged by how they fail. */
  readonly main: boolean;
  /** For a step that runs tests, the failing tests its output names. */
  readonly failing?: readonly string[];
  /** For a step that runs tests, the test files it could not load. */
  readonly notRun?: NotRun;
  readonly passed: boolean;
  readonly exitCode: number | null;
  /** The lines of its output that report a failure (verdict.ts `failureLines`), to compare with the baseline's. */
  readonly failureLines: readonly string[];
  /** verdict.ts `outputDigest` of its output: a step that prints the same as in the baseline fails as it did. */
  readonly outputDigest: string;
  /**
   * The end of its output, for a step that runs tests (what tells whether they could run at all) and for one that
   * failed (what says why: the lint's errors come before the tests' output, whose tail would not show them).
   */
  readonly tail?: string;
  /** A sandbox limit the step ran into. */
  readonly limit?: LimitHit;
  /** It ran out of its time (a check patchsmith added; any other step's timeout is the whole run's). */
  readonly timedOut?: boolean;
}

export interface EditOutcome {
  readonly path: string;
  readonly ok: boolean;
  readonly strategy?: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface AttemptReport {
  readonly number: number;
  readonly edits: readonly EditOutcome[];
  /** True when a retry with the model-readable failures was needed in this attempt. */
  readonly retried: boolean;
  readonly tests: TestSummary | null;
  /** True when the attempt's edits applied and left the tests no worse, i.e. it became a commit. */
  readonly accepted: boolean;
  readonly commit?: string;
  /** Tokens used by this attempt's model calls. */
  readonly usage?: Usage;
  /** Why the attempt was not accepted, in words (no edits, edits failed, new failing tests ...). */
  readonly note?: string;
}

export interface CommitInfo {
  readonly sha: string;
  readonly subject: string;
  readonly message: string;
}

export interface Usage {
  readonly calls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /**
   * How many of `calls` had their figures estimated (about 4 characters a token) because the endpoint reported no
   * usage; absent when every figure was reported.
   */
  readonly estimatedCalls?: number;
  /** US dollars, for the calls to models the operator priced (PATCHSMITH_MODELS_FILE); absent when none was. */
  readonly costUsd?: number;
}

export interface ChangedFile {
  readonly path: string;
  /** null when the file was created / deleted. */
  readonly before: string | null;
  readonly after: string | null;
}

export interface FixReport {
  readonly status: FixStatus;
  readonly branch: string;
  readonly baseSha: string;
  readonly headSha: string;
  readonly commits: readonly CommitInfo[];
  readonly attempts: readonly AttemptReport[];
  readonly tests: { readonly before: TestSummary | null; readonly after: TestSummary | null };
  readonly usage: Usage;
  /** `git diff --stat` of base..head (or of the working tree with noCommit). */
  readonly diffStat: string;
  /** The full diff, for a collapsed block or a patch. */
  readonly diff: string;
  readonly changedFiles: readonly ChangedFile[];
  readonly pushed: boolean;
  /** Red then green for a bug with a reproducing test, when one was asked for. */
  readonly reproduction?: { readonly testPath: string; readonly failedBefore: boolean; readonly passesAfter: boolean };
  /** The model-readable failure (status failed / exhausted). Redacted. */
  readonly failure?: { readonly reason: string; readonly message: string };
  readonly clonePath?: string;
  /** Where commits that were not pushed went: the local repository the run was asked about, or the kept clone. */
  readonly delivered?: "local-repository" | "kept-clone";
  /** The set-up step: what ran, from where, how long, whether the cache was warm, how it ended. */
  readonly setup?: SetupReport;
  /** Rounds in which the model asked to see more files or to search the repository, and was answered. */
  readonly lookups?: number;
  /** Where the run's time went, by phase (ms). */
  readonly timings?: PhaseTimings;
  /** Where the test command came from; absent when no tests were found. */
  readonly testCommand?: { readonly command: string; readonly source: "request" | "repo-config" | "detected" };
  /** What the model was shown and why, and what did not fit in the budget: honest coverage. */
  readonly context?: {
    readonly files: ReadonlyArray<{
      readonly path: string;
      readonly why: ContextReason;
      readonly detail?: string;
      readonly lines?: { readonly start: number; readonly end: number };
    }>;
    readonly omitted: readonly string[];
    /** The repository's notes for coding agents the model read (AGENTS.md). */
    readonly instructions?: readonly string[];
  };
  /** Plain sentences for people: no tests found, a budget that ran out, a push that was refused. */
  readonly notes?: readonly string[];
  /**
   * Set when an earlier run of the same request had already pushed its commits (see FixRequest.resumeTrailer):
   * the commit that run started from, where it may have left other traces (the App: its check run).
   */
  readonly resumedFrom?: string;
}
