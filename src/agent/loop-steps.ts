/**
 * The steps of one attempt of the loop (loop.ts), each on the state the loop carries: what the edits wrote, the
 * commit of an accepted attempt, the next prompt, and the final rollback and report.
 */
import { readText, retryPromptFor } from "./apply-step.js";
import type { runEditPhase, LoopStop } from "./attempt.js";
import { buildNoEditsPrompt, buildReflectionPrompt, DEFAULT_EDIT_FORMAT } from "./build-prompt.js";
import { buildCommitMessage, chooseSubject, requestBody, type ChangeFacts } from "./commit-message.js";
import type { evaluateAttempt } from "./evaluate.js";
import { madePass } from "./held-tests.js";
import type { LoopInput, LoopResult } from "./loop.js";
import type { AttemptReport, CommitInfo, TestSummary } from "./types.js";

/** Whether the request names one of the tests (whole, or its last part: `suite › name`, `file::name`). */
function namesAny(instruction: string, tests: readonly string[]): boolean {
  const text = instruction.toLowerCase();
  return tests.some((test) => {
    const name = test.toLowerCase();
    const last = name.split(/\s*(?:›|>|::|\s-\s)\s*/).at(-1) ?? name;
    return text.includes(name) || (last.length >= 4 && text.includes(last));
  });
}

type Phase = Awaited<ReturnType<typeof runEditPhase>>;
type Evaluation = Awaited<ReturnType<typeof evaluateAttempt>>;
type Problem = NonNullable<LoopResult["lastProblem"]>;

/** How much of a reply without edits the report quotes: enough for a reason or a question, not a whole essay. */
const SAID_CHARS = 1_200;

/**
 * What the model wrote instead of edits (why it thinks nothing needs changing, a question back), quoted for the
 * report: the person who asked reads it, not only that no edit came.
 */
function saidInstead(reply: string | undefined): string {
  const text = (reply ?? "").trim();
  if (text === "") return "";
  const cut = text.length > SAID_CHARS ? `${text.slice(0, SAID_CHARS).trimEnd()} …` : text;
  return ` It said:\n\n${cut
    .split("\n")
    .map((line) => `> ${line}`.trimEnd())
    .join("\n")}`;
}

/** The next prompt after an attempt that wrote nothing: the format taught again, or the edits' failures. */
export async function promptAfterNothingWritten(
  input: LoopInput,
  phase: Phase,
  baseline: TestSummary | null,
): Promise<{ prompt: string; problem: Problem }> {
  if (phase.lastReplyEmpty) {
    const format = input.request.editFormat ?? DEFAULT_EDIT_FORMAT;
    return {
      prompt: buildNoEditsPrompt(baseline !== null && !baseline.passed, format),
      problem: {
        reason: "no-edits",
        message: `The model's last reply held no edit block.${saidInstead(phase.replies.at(-1))}`,
      },
    };
  }
  const prompt = await retryPromptFor(input.tree, phase.failures, input.rules.guard);
  const first = phase.failures[0];
  return {
    prompt,
    problem: { reason: first !== undefined && !first.ok ? first.reason : "edits-failed", message: prompt },
  };
}

/** The next prompt after the tests ran: what they said (new and remaining failures), or the edits' failures. */
export async function promptAfterTests(
  input: LoopInput,
  phase: Phase,
  evaluation: Evaluation,
  context: { readonly attempt: number; readonly mayDeclareDone: boolean; readonly baseline: TestSummary | null },
): Promise<{ prompt: string; problem: Problem }> {
  if (evaluation.tests === null || evaluation.comparison === null) {
    const prompt = await retryPromptFor(input.tree, phase.failures, input.rules.guard);
    return { prompt, problem: { reason: "edits-failed", message: prompt } };
  }
  const files = new Map<string, string | undefined>();
  for (const path of phase.written) files.set(path, await readText(input.tree, path));
  const cmp = evaluation.comparison;
  const prompt = buildReflectionPrompt({
    attempt: context.attempt,
    tests: evaluation.tests,
    newFailures: cmp.verdict === "worse" ? cmp.newFailures : [],
    stillFailing: cmp.verdict === "no-worse" ? cmp.stillFailing : [],
    notRunBefore: cmp.verdict === "no-worse" ? (cmp.notRunBefore ?? []) : [],
    files,
    previous: phase.preimages,
    redact: input.redact,
    mayDeclareDone: context.mayDeclareDone,
    baseline: context.baseline,
    ...(evaluation.held === undefined
      ? {}
      : { held: { paths: [...evaluation.held.versions.keys()], failing: evaluation.held.failing } }),
  });
  return { prompt, problem: { reason: evaluation.accepted ? "tests-still-failing" : "tests-failed", message: prompt } };
}

/** One commit of what the engine wrote, its subject from the replies (redacted), with the request's trailers. */
export async function commitAttempt(
  input: LoopInput,
  replies: readonly string[],
  touched: ReadonlySet<string>,
  written: ReadonlyMap<string, string | null>,
  modes: ReadonlyMap<string, boolean>,
  facts: ChangeFacts,
): Promise<CommitInfo | undefined> {
  const { request } = input;
  const changed = await input.sandbox.changedPaths();
  const subject = input.redact(
    chooseSubject(
      replies.join("\n"),
      request.instruction,
      changed.filter((p) => touched.has(p)),
      facts,
    ),
  );
  const body = requestBody(request.instruction, subject);
  const message = buildCommitMessage({
    subject,
    ...(body === undefined ? {} : { body: input.redact(body) }),
    model: input.session.model,
    ...(request.coAuthor !== undefined ? { coAuthor: request.coAuthor } : {}),
    ...(request.trailers !== undefined ? { trailers: request.trailers } : {}),
  });
  const sha = await input.timings.measure("commit", () =>
    input.sandbox.commitFiles(written, message, input.bot, modes),
  );
  return sha === undefined ? undefined : { sha, subject, message };
}

/** What the loop carries from one attempt to the next. */
export interface LoopState {
  readonly attempts: AttemptReport[];
  readonly commits: CommitInfo[];
  /** Every path the model wrote at some point. */
  readonly touched: Set<string>;
  /** Content at the last accepted state of every path ever written: what a final rollback restores (noCommit). */
  readonly lastGood: Map<string, string | null>;
  /**
   * What the engine last wrote to each path: the only bytes a commit may hold, and what the tree is put back to
   * after the tests ran (they may have changed an edited file).
   */
  readonly written: Map<string, string | null>;
  /** The executable bit the engine last set on a path of `written`, where it set one: what the commit records. */
  readonly modes: Map<string, boolean>;
  /** Tests of the last accepted state. */
  baseline: TestSummary | null;
  prompt: string;
  done: boolean;
  accepted: number;
  /** Changes written since the last accepted attempt. */
  pending: boolean;
  /**
   * The replies whose edits the next commit holds (every attempt since the last accepted one: a rejected attempt's
   * edits stay for the next to build on), where the model's `COMMIT:` subject for the change may be.
   */
  readonly pendingReplies: string[];
  stop: LoopStop | undefined;
  lastProblem: LoopResult["lastProblem"];
  red: LoopResult["red"];
  /** After an accepted attempt that left only failures the baseline had: the model may answer DONE. */
  mayDeclareDone: LoopResult["leftFailing"];
  leftFailing: LoopResult["leftFailing"];
  /** A run that looked worse has been run again once already (evaluate.ts): it is not done twice in a job. */
  reran: boolean;
}

/** What an attempt's edits did to the tree, kept for the commit and for a final rollback. */
export function recordPhase(state: LoopState, phase: Phase): void {
  for (const [path, preimage] of phase.preimages) if (!state.lastGood.has(path)) state.lastGood.set(path, preimage);
  for (const path of phase.written) state.touched.add(path);
  for (const [path, content] of phase.contents) state.written.set(path, content);
  for (const [path, executable] of phase.modes) state.modes.set(path, executable);
  if (phase.written.length > 0) state.pending = true;
  state.pendingReplies.push(...phase.replies);
}

/** An accepted attempt: the new baseline, the state to roll back to, its commit; returns the commit's SHA. */
export async function acceptAttempt(
  input: LoopInput,
  state: LoopState,
  evaluation: Evaluation,
  number: number,
): Promise<string | undefined> {
  state.accepted++;
  state.pending = false;
  const before = state.baseline;
  const after = evaluation.tests;
  const fixesFailingTests =
    before !== null && after !== null && !before.passed && (after.passed || madePass(before, after).length > 0);
  state.baseline = evaluation.tests ?? state.baseline;
  for (const path of state.touched) state.lastGood.set(path, (await readText(input.tree, path)) ?? null);
  let sha: string | undefined;
  if (input.request.noCommit !== true) {
    input.progress("committing", `attempt ${number}`);
    const made = await commitAttempt(input, state.pendingReplies, state.touched, state.written, state.modes, {
      fixesFailingTests,
    });
    if (made !== undefined) state.commits.push(made);
    sha = made?.sha;
  }
  state.pendingReplies.length = 0;
  state.done = evaluation.tests === null || evaluation.tests.passed;
  const cmp = evaluation.comparison;
  const left = cmp?.verdict === "no-worse" ? [...cmp.stillFailing, ...(cmp.notRunBefore ?? [])] : [];
  state.mayDeclareDone =
    cmp?.verdict === "no-worse" && !namesAny(input.request.instruction, left)
      ? {
          names: left,
          unnamed: cmp.unnamed ?? [],
          ...(cmp.notRunBefore === undefined ? {} : { notRunBefore: cmp.notRunBefore }),
        }
      : undefined;
  return sha;
}

/** Rolls back what no accepted attempt kept, and reports. */
export async function finish(input: LoopInput, state: LoopState): Promise<LoopResult> {
  if (state.pending) {
    if (input.request.noCommit === true) await input.tree.commit(state.lastGood);
    else await input.sandbox.resetHard();
  }
  const { attempts, commits, baseline, done, accepted, touched, stop, lastProblem, red, leftFailing } = state;
  return {
    attempts,
    commits,
    finalTests: baseline,
    done,
    accepted,
    touched,
    ...(stop ? { stop } : {}),
    ...(lastProblem ? { lastProblem } : {}),
    ...(red ? { red } : {}),
    ...(leftFailing ? { leftFailing } : {}),
  };
}
