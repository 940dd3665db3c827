/**
 * The progress comment, edited in place as the job moves, and its final form (pure). The worker passes every body
 * through the redactor before it is posted.
 */
import type { FixStage } from "../agent/types.js";
import type { Denial } from "../github/authorize.js";
import { MARKER, fence, plural, quoteInline, shortSha, truncate } from "../github/markdown.js";
import type { Delivery, Outcome, Progress, Stop } from "./outcome.js";
import {
  renderAttempts,
  renderChanges,
  renderFailure,
  renderNotes,
  renderTestTail,
  renderTests,
  renderUsage,
} from "./render-report.js";

const STAGES: ReadonlyArray<readonly [FixStage, string]> = [
  ["queued", "queued"],
  ["cloning", "cloning"],
  ["setting-up", "installing what the tests need"],
  ["testing-before", "running the tests first"],
  ["asking-model", "asking the model"],
  ["applying", "applying the edits"],
  ["testing", "testing"],
  ["committing", "committing"],
  ["pushing", "pushing"],
];

export function stageLabel(stage: FixStage): string {
  return STAGES.find(([s]) => s === stage)?.[1] ?? "done";
}

function header(requester: string, command: string): string {
  return `${MARKER}\n**patchsmith** · \`${quoteInline(command)}\` for @${requester}`;
}

/** A checklist: stages already passed are ticked, the current one is marked. */
export function renderProgress(progress: Progress): string {
  const current = STAGES.findIndex(([stage]) => stage === progress.stage);
  const lines = STAGES.map(([, label], index) => {
    if (index < current) return `- [x] ${label}`;
    if (index === current) {
      const detail = progress.detail === undefined ? "" : ` — ${quoteInline(progress.detail)}`;
      return `- [ ] **${label}** ⏳${detail}`;
    }
    return `- [ ] ${label}`;
  });
  const waiting =
    progress.stage === "queued" && progress.waitingBehind !== undefined && progress.waitingBehind > 0
      ? `\n\nWaiting behind ${plural(progress.waitingBehind, "earlier command")} on this thread.`
      : "";
  return `${header(progress.requester, progress.command)}\n\n${lines.join("\n")}${waiting}`;
}

function renderDelivery(delivery: Delivery): string {
  switch (delivery.kind) {
    case "pushed": {
      const commits = delivery.commits.map((c) => `- [\`${shortSha(c.sha)}\`](${c.url}) ${quoteInline(c.subject)}`);
      const pull =
        delivery.pull === undefined
          ? ""
          : `\n\n${delivery.pull.created ? "Opened" : "Updated"} pull request #${delivery.pull.number}: ${delivery.pull.url}`;
      return `Pushed ${plural(delivery.commits.length, "commit")} to \`${delivery.branch}\`:\n${commits.join("\n")}${pull}`;
    }
    case "suggestion":
      return `Posted a suggestion in the review thread (applied and tested in a clone first): ${delivery.replyUrl}`;
    case "patch":
      return `${delivery.why} Here is the change as a patch (\`git apply\` it, or copy the parts you want):`;
  }
}

const STOP_TITLES: Record<Stop, string> = {
  "head-moved": "Stopped: the branch moved",
  "push-race": "Stopped: someone pushed meanwhile",
  "pull-closed": "Stopped: the pull request is closed",
  "fork-no-push": "Could not push to the fork",
  "suggest-needs-review-comment": "`--suggest` needs a review comment",
  "nothing-to-undo": "Nothing to undo",
  "undo-conflict": "Could not undo",
  "branch-missing": "Nothing to undo",
};

export function stopTitle(stop: Stop): string {
  return STOP_TITLES[stop];
}

const DENIALS: Record<Denial, string> = {
  "insufficient-permission": "patchsmith only acts for people with write access to this repository",
  "not-listed": "this repository's `.github/patchsmith.yml` limits who may trigger patchsmith",
  bot: "bots cannot trigger patchsmith",
  self: "patchsmith does not answer itself",
};

/** Why the rule exists, in words a newcomer can accept. */
const DENIAL_WHY: Record<Denial, string> = {
  "insufficient-permission":
    "it only runs for people with write access to this repository, because it runs the repository's code and pushes commits",
  "not-listed": "this repository's `.github/patchsmith.yml` names the people who may trigger it",
  bot: "it never runs for bots, so that bots cannot set each other off",
  self: "it never answers itself",
};

/** The note a person without the right to trigger work gets, once per thread. */
export function renderDenied(login: string, reason: Denial): string {
  return [
    MARKER,
    `Hi @${login}, thanks for taking the time! patchsmith turns \`/fix\` comments into tested commits, pull requests ` +
      `and review suggestions, but ${DENIAL_WHY[reason]}, so it did not act on your comment.`,
    "",
    "If a maintainer agrees with the change, they can post the same command and patchsmith will take it from there.",
  ].join("\n");
}

/** The answer to a command that arrives while its thread already has as many as it may queue. */
export function renderBusy(login: string, command: string, waiting: number): string {
  return [
    MARKER,
    `@${login} \`${command}\` was not queued: ${plural(waiting, "command")} on this thread ${waiting === 1 ? "is" : "are"} ` +
      "already queued or running, and patchsmith runs one at a time per thread.",
    "",
    "Post it again once they have finished (each ends with its own reply).",
  ].join("\n");
}

/** Room for a patch in the final comment, leaving the rest of it well under GitHub's 65,536-character limit. */
const PATCH_MAX_CHARS = 45_000;

/** The final body of the progress comment. */
export function renderOutcome(outcome: Outcome, requester: string, command: string): string {
  const top = header(requester, command);
  switch (outcome.kind) {
    case "fixed": {
      const r = outcome.report;
      const parts = [
        `${top} — ✅ done`,
        renderDelivery(outcome.delivery),
        // GitHub refuses comments over 65,536 characters: a patch that large is cut, and says so.
        outcome.delivery.kind === "patch" ? fence(truncate(r.diff, PATCH_MAX_CHARS), "diff") : renderChanges(r),
        renderTests(r),
        renderUsage(r),
        renderAttempts(r),
        renderNotes(r),
      ];
      return parts.filter((p) => p !== "").join("\n\n");
    }
    case "not-fixed": {
      const r = outcome.report;
      const what = r.status === "exhausted" ? "ran out of attempts or budget" : "could not make this change";
      const parts = [
        `${top} — ❌ ${what}`,
        "Nothing was pushed.",
        renderFailure(r),
        renderTests(r),
        renderUsage(r),
        renderAttempts(r),
        renderTestTail(r),
        renderNotes(r),
      ];
      return parts.filter((p) => p !== "").join("\n\n");
    }
    case "stopped": {
      const extra = outcome.report === undefined ? [] : [renderUsage(outcome.report)];
      return [`${top} — ⚠️ ${STOP_TITLES[outcome.stop]}`, outcome.detail, ...extra].join("\n\n");
    }
    case "undone":
      return [
        `${top} — ✅ undone`,
        `Reverted [\`${shortSha(outcome.reverted.sha)}\`](${outcome.reverted.url}) ${quoteInline(outcome.reverted.subject)}` +
          ` with [\`${shortSha(outcome.revert.sha)}\`](${outcome.revert.url}) on \`${outcome.branch}\`.`,
      ].join("\n\n");
    case "config-error":
      return [
        `${top} — ⚠️ configuration error`,
        "Nothing was run. Fix the file on the default branch and run the command again:",
        fence(outcome.message),
      ].join("\n\n");
    case "denied":
      return `${top} — not run\n\n${DENIALS[outcome.reason]} (your permission: \`${outcome.permission}\`).`;
    case "error":
      return [`${top} — ❌ something went wrong`, fence(outcome.message), "Running the command again may help."].join(
        "\n\n",
      );
  }
}

export function renderHelp(): string {
  return [
    MARKER,
    "**patchsmith** makes the change a comment asks for: it edits the code in a fresh clone, runs the repository's " +
      "tests, and delivers the result as commits, a pull request or a suggestion — or explains why it could not.",
    "",
    "Write a command at the start of a line. Only people with write access to this repository (or those " +
      "`.github/patchsmith.yml` names) can trigger it; bots cannot.",
    "",
    "| command | where | what it does |",
    "|---|---|---|",
    "| `/fix <instructions>` | issue | opens a pull request from `patchsmith/issue-N` that fixes the issue |",
    "| `/fix <instructions>` | pull request | pushes a tested commit to the pull request's branch |",
    "| `/fix <instructions>` | review comment | the same, focused on the commented lines |",
    "| `/fix --suggest` | review comment | answers with a suggestion block, tested in a clone first |",
    "| `/undo` | issue or pull request | reverts patchsmith's last commit on the branch with a revert commit |",
    "| `/help` | anywhere | this message |",
    "",
    "Commits are authored by the app with you as co-author, tested before they are pushed, and never force-pushed; " +
      "`.github/workflows/` is off limits unless the config allows it.",
    "Settings live in `.github/patchsmith.yml` on the default branch: test command, model, budgets, forbidden paths, " +
      "who may trigger.",
  ].join("\n");
}
