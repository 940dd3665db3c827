/**
 * One Action run: the comment event of the workflow, through the App's own intake (authorisation, 👀, /help, the
 * queued comment) and worker (the fix loop, the commits, the pull request or the patch, the final report), on an
 * in-memory queue that this run drains. What it did comes back as the step's outputs.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createConsoleLogger } from "../adapters/console-logger.js";
import { createMemoryQueue } from "../adapters/memory-queue.js";
import type { FixReport, FixRequest } from "../agent/types.js";
import { runFix } from "../agent/run-fix.js";
import { composeFixDeps } from "../compose.js";
import { modelSettings, parseEnv } from "../config/env.js";
import { commandOf } from "../github/accept-delivery.js";
import { runIntake, type IntakeResult } from "../jobs/intake.js";
import type { Job } from "../jobs/job-schema.js";
import { createWorker } from "../jobs/worker.js";
import type { GitHubGateway } from "../ports/github-gateway.js";
import type { Logger } from "../ports/logger.js";
import type { ActionSettings } from "./inputs.js";
import { ACTIONS_BOT, createActionGateway, createActionOctokit } from "./github.js";

export interface ActionOutcome {
  /** `ignored` (no command for patchsmith), the intake's answer (`answered`, `denied`, ...), or the fix's status. */
  readonly status: string;
  readonly branch?: string;
  readonly commits: readonly string[];
  readonly pullRequest?: { readonly number: number; readonly url: string };
  /** Notes for the step summary (a sandbox that could not run, ...). */
  readonly notes: readonly string[];
}

/** The Action's inputs over what the repository's config says: the workflow's author chose them for this run. */
function withInputs(request: FixRequest, settings: ActionSettings): FixRequest {
  return {
    ...request,
    ...(settings.testCommand === undefined ? {} : { testCommand: settings.testCommand }),
    ...(settings.setup === undefined
      ? {}
      : settings.setup === false
        ? { setup: false as const }
        : { configuredSetup: settings.setup }),
    ...(settings.maxAttempts === undefined ? {} : { maxAttempts: settings.maxAttempts }),
    ...(settings.tokenBudget === undefined ? {} : { tokenBudget: settings.tokenBudget }),
    ...(settings.wallTimeMs === undefined ? {} : { wallTimeMs: settings.wallTimeMs }),
    ...(settings.testTimeoutMs === undefined ? {} : { testTimeoutMs: settings.testTimeoutMs }),
    ...(settings.editFormat === undefined ? {} : { editFormat: settings.editFormat }),
  };
}

/** Workflow payloads carry no installation: the Action is its own, number 0. */
function asAppPayload(payload: unknown): unknown {
  if (typeof payload !== "object" || payload === null) return payload;
  const record = payload as Record<string, unknown>;
  return record.installation === undefined || record.installation === null
    ? { ...record, installation: { id: 0 } }
    : record;
}

export async function runAction(
  settings: ActionSettings,
  vars: Readonly<Record<string, string | undefined>>,
  logger: Logger = createConsoleLogger({ secrets: [settings.token] }),
): Promise<ActionOutcome> {
  const notes: string[] = [];
  const payload = asAppPayload(JSON.parse(await readFile(settings.eventPath, "utf8")) as unknown);
  const command = commandOf(
    { id: `${settings.eventName}-${String(Date.now())}`, name: settings.eventName, payload },
    logger,
    Date.now,
  );
  if (typeof command === "string") return { status: "ignored", commits: [], notes: [`Nothing to do: ${command}.`] };

  const env = parseEnv({ ...vars, ...settings.cliEnv });
  if (!env.ok) throw new Error(env.message);
  const model = modelSettings(env.env, vars, (path) => readFileSync(path, "utf8"));
  if (!model.ok) throw new Error(`${model.message} (set the openai-api-key input from a secret)`);
  const base = composeFixDeps(env.env, model.settings, {
    defaultSandbox: "auto",
    ...(settings.tempRoot === undefined
      ? {}
      : { cacheRoot: `${settings.tempRoot}/patchsmith-cache`, tempRoot: settings.tempRoot }),
  });
  const secrets = [...(base.secrets ?? []), settings.token];
  const sandbox = await base.runner.describe();
  if (sandbox.warning !== undefined) notes.push(`Sandbox: ${sandbox.warning}`);
  // The workflow's checkout lends its objects to the throwaway clone: nothing is downloaded twice.
  const workspace = settings.workspace;
  const git =
    workspace === undefined
      ? base.git
      : {
          clone: (options: Parameters<typeof base.git.clone>[0]) =>
            base.git.clone({ ...options, reference: workspace }),
        };
  const fixDeps = { ...base, git, logger, secrets };

  const octokit = createActionOctokit(settings.token, settings.apiUrl, logger);
  const reports: FixReport[] = [];
  let pullRequest: ActionOutcome["pullRequest"];
  const plain = createActionGateway(octokit, settings.token);
  const gateway: GitHubGateway = {
    ...plain,
    async createPull(repo, pull) {
      const made = await plain.createPull(repo, pull);
      pullRequest = { number: made.number, url: made.htmlUrl };
      return made;
    },
  };

  const jobs = createMemoryQueue<Job>({ concurrency: 1 });
  const intake: IntakeResult = await runIntake(
    { version: 1, deliveryId: command.record.deliveryId, receivedAt: Date.now(), event: command.record.event },
    { gateway: () => gateway, jobs, logger, now: Date.now, identity: () => Promise.resolve(ACTIONS_BOT) },
    `action-${String(process.pid)}`,
  );
  if (intake !== "enqueued") return { status: intake, commits: [], notes };
  const work = createWorker({
    gateways: () => gateway,
    runFix: async (request, jobLogger) => {
      const report = await runFix(
        { ...fixDeps, ...(jobLogger === undefined ? {} : { logger: jobLogger }) },
        withInputs(request, settings),
      );
      reports.push(report);
      return report;
    },
    git,
    logger,
    secrets,
    defaultModel: base.defaultModel,
    tempRoot: base.tempRoot,
  });
  let crashed: Error | undefined;
  jobs.start(work, (error) => {
    crashed = error instanceof Error ? error : new Error(`the job crashed: ${JSON.stringify(error)}`);
  });
  await jobs.idle();
  await jobs.close();
  if (crashed !== undefined) throw crashed;
  const report = reports.at(-1);
  return {
    status: report?.status ?? "done",
    ...(report === undefined || report.branch === "" ? {} : { branch: report.branch }),
    commits: report?.pushed === true ? report.commits.map((c) => c.sha) : [],
    ...(pullRequest === undefined ? {} : { pullRequest }),
    notes,
  };
}
