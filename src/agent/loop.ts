/**
 * The bounded loop: attempts until the tests are green (or, without tests, the edits all landed), or a budget
 * runs out. Each accepted attempt becomes one commit; a rejected attempt's changes stay in the tree for the next
 * attempt to build on, and are rolled back if no later attempt is accepted.
 */
import type { Sandbox } from "../ports/git-sandbox.js";
import type { ApplyRules } from "./apply-step.js";
import { runEditPhase, type LoopStop } from "./attempt.js";
import { checkBudget, usageSince } from "./budget.js";
import { DEFAULT_EDIT_FORMAT } from "./build-prompt.js";
import type { FixDeps, WorkTree } from "./deps.js";
import { evaluateAttempt } from "./evaluate.js";
import {
  acceptAttempt,
  finish,
  promptAfterNothingWritten,
  promptAfterTests,
  recordPhase,
  type LoopState,
} from "./loop-steps.js";
import type { Session } from "./session.js";
import type { Timings } from "./timings.js";
import type { AttemptReport, CommitInfo, FixRequest, FixStage, Identity, TestSummary } from "./types.js";
import { summaryForReport } from "./test-output.js";

export interface LoopInput {
  readonly deps: FixDeps;
  readonly request: FixRequest;
  readonly session: Session;
  readonly sandbox: Sandbox;
  readonly tree: WorkTree;
  readonly rules: ApplyRules;
  readonly firstPrompt: string;
  readonly before: TestSummary | null;
  readonly test: (() => Promise<TestSummary>) | undefined;
  readonly reproduce: boolean;
  readonly bot: Identity;
  readonly redact: (text: string) => string;
  readonly progress: (stage: FixStage, detail?: string) => void;
  readonly timings: Timings;
}

export interface LoopResult {
  readonly attempts: readonly AttemptReport[];
  readonly commits: readonly CommitInfo[];
  /** Tests of the last accepted state (the baseline when nothing was accepted). */
  readonly finalTests: TestSummary | null;
  /** The last accepted state passes its tests (or, without tests, an attempt was accepted). */
  readonly done: boolean;
  readonly accepted: number;
  readonly stop?: LoopStop;
  /** The last thing that went wrong, model-readable. */
  readonly lastProblem?: { readonly reason: string; readonly message: string };
  /** Every path the model wrote at some point. */
  readonly touched: ReadonlySet<string>;
  readonly red?: { readonly testPath: string; readonly failedBefore: boolean };
  /** Done with failures left that all failed before the job, which the model judged unrelated to the request. */
  readonly leftFailing?: {
    readonly names: readonly string[];
    readonly unnamed: readonly string[];
    /** Of `names`, those that could not run before the change. */
    readonly notRunBefore?: readonly string[];
  };
}

export async function runLoop(input: LoopInput): Promise<LoopResult> {
  const { session, request, tree } = input;
  const state: LoopState = {
    attempts: [],
    commits: [],
    touched: new Set(),
    lastGood: new Map(),
    written: new Map(),
    modes: new Map(),
    baseline: input.before,
    prompt: input.firstPrompt,
    done: false,
    accepted: 0,
    pending: false,
    pendingReplies: [],
    stop: undefined,
    lastProblem: undefined,
    red: undefined,
    mayDeclareDone: undefined,
    leftFailing: undefined,
    reran: false,
  };

  for (;;) {
    state.stop = checkBudget(session.limits, session.state(), session.now());
    if (state.stop) break;
    session.attemptsUsed++;
    const number = session.attemptsUsed;
    const usageBefore = session.usage;
    input.progress("asking-model", `attempt ${number} of ${session.limits.maxAttempts}`);
    const phase = await runEditPhase({
      session,
      tree,
      rules: input.rules,
      prompt: state.prompt,
      testsFailing: state.baseline !== null && !state.baseline.passed,
      format: request.editFormat ?? DEFAULT_EDIT_FORMAT,
      acceptsDone: state.mayDeclareDone !== undefined,
      // The last accepted content of each path written since: where an unaccepted attempt's edits still stand.
      earlier: (path) => state.lastGood.get(path),
      timings: input.timings,
      onApplying: () => {
        input.progress("applying", `attempt ${number}`);
      },
    });
    if (phase.replies.length === 0) {
      session.attemptsUsed--;
      state.stop = phase.stop;
      break;
    }
    recordPhase(state, phase);
    const base = {
      number,
      edits: phase.outcomes,
      retried: phase.retried,
      usage: usageSince(usageBefore, session.usage),
    };
    if (phase.declaredDone === true && state.mayDeclareDone !== undefined) {
      state.attempts.push({
        ...base,
        tests: null,
        accepted: false,
        note:
          state.mayDeclareDone.notRunBefore === undefined
            ? "the model judged the failures left, all of which were there before the change, unrelated to the request"
            : "the model judged the failures left, which failed or could not run before the change, unrelated to the request",
      });
      state.leftFailing = state.mayDeclareDone;
      state.done = true;
      break;
    }

    if (phase.written.length === 0) {
      const note = phase.lastReplyEmpty ? "the last reply held no edits" : "no edit could be applied";
      state.attempts.push({ ...base, tests: null, accepted: false, note });
      ({ prompt: state.prompt, problem: state.lastProblem } = await promptAfterNothingWritten(
        input,
        phase,
        state.baseline,
      ));
      if (phase.stop) {
        state.stop = phase.stop;
        break;
      }
      continue;
    }

    input.progress("testing", `attempt ${number}`);
    const evaluation = await evaluateAttempt({
      tree,
      sandbox: input.sandbox,
      written: state.written,
      phase,
      baseline: state.baseline,
      test: input.test,
      checkReproduction: input.reproduce && state.red === undefined,
      accepted: (path) => state.lastGood.get(path),
      instruction: request.instruction,
      mayRerun: () => !state.reran && (state.reran = true),
    });
    // The tree holds these files as they were again: what the engine wrote there is gone.
    for (const [path, content] of evaluation.held?.versions ?? []) state.written.set(path, content);
    if (evaluation.red) state.red = { testPath: evaluation.red.testPath, failedBefore: evaluation.red.failedBefore };
    let commit: string | undefined;
    if (evaluation.accepted) commit = await acceptAttempt(input, state, evaluation, number);
    else state.mayDeclareDone = undefined;
    state.attempts.push({
      ...base,
      tests: evaluation.tests === null ? null : summaryForReport(evaluation.tests, input.redact),
      accepted: evaluation.accepted,
      ...(commit !== undefined ? { commit } : {}),
      ...(evaluation.note !== undefined ? { note: evaluation.note } : {}),
    });
    if (state.done) break;

    ({ prompt: state.prompt, problem: state.lastProblem } = await promptAfterTests(input, phase, evaluation, {
      attempt: number,
      mayDeclareDone: state.mayDeclareDone !== undefined,
      baseline: state.baseline,
    }));
    if (phase.stop) {
      state.stop = phase.stop;
      break;
    }
  }
  return finish(input, state);
}
