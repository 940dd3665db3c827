/**
 * The set-up step: the plan's commands one after another in the sandbox, with the network the operator allows
 * (the package registries, through the egress proxy) and the repository's cache mounted read-write; then what they
 * made is kept out of git's sight. The report says what ran, from where, how long, whether the cache was warm.
 */
import type { RunSummary } from "../ports/sandbox-runner.js";
import type { FixDeps } from "./deps.js";
import type { SetupPlan } from "./setup-plan.js";
import { cacheMount, runRequest, type RunPlace } from "./run-place.js";
import { REPORT_TAIL_BYTES } from "./test-output.js";

export const DEFAULT_SETUP_TIMEOUT_MS = 15 * 60_000;

export interface SetupReport {
  readonly commands: readonly string[];
  readonly source: SetupPlan["source"];
  readonly status: "ok" | "failed";
  readonly durationMs: number;
  /** Whether the repository's cache held an earlier successful set-up ("none": no cache folder configured). */
  readonly cache: "warm" | "cold" | "none";
  /** The command that failed, with the end of its output. */
  readonly failure?: {
    readonly command: string;
    readonly exitCode: number | null;
    readonly timedOut: boolean;
    readonly tail: string;
    readonly limit?: string;
  };
  /** Hosts set-up tried to reach and the egress allow-list refused. */
  readonly refusedHosts?: readonly string[];
  /** Hosts the allow-list admits that set-up could not reach from this machine. */
  readonly unreachableHosts?: readonly string[];
  /** Tracked files set-up changed, put back before the tests. */
  readonly restored?: readonly string[];
  /** corepack could not check the package manager's registry signature, and installed it unchecked. */
  readonly unsignedPackageManager?: boolean;
}

/**
 * corepack refusing a package manager because the registry's metadata carries no signature it knows: a mirror or
 * a proxy that strips `dist.signatures`, or keys newer than this corepack's.
 */
const UNSIGNED = /No compatible signature found in package metadata|Cannot find matching keyid/;

/**
 * What corepack is told after such a refusal: skip the check (its documented switch). The package manager then
 * comes from the registry as the dependencies do (npm and pnpm check no signature either), so the project's trust
 * in its registry is what it was.
 */
const SKIP_SIGNATURES = { COREPACK_INTEGRITY_KEYS: "0" } as const;

const tailOf = (output: string, bytes: number): string => {
  const buffer = Buffer.from(output, "utf8");
  return buffer.length <= bytes
    ? output
    : buffer
        .subarray(buffer.length - bytes)
        .toString("utf8")
        .replace(/^\uFFFD+/, "");
};

export async function runSetup(
  deps: FixDeps,
  place: RunPlace,
  plan: SetupPlan,
  timeoutMs: number,
): Promise<SetupReport> {
  const started = deps.clock.now();
  const caches = deps.caches;
  const folder = place.cacheDir;
  const cache = caches === undefined || folder === undefined ? "none" : (await caches.isWarm(folder)) ? "warm" : "cold";
  const refused = new Set<string>();
  const unreachable = new Set<string>();
  let failed: RunSummary | undefined;
  let unsigned = false;
  const runOnce = async (command: string): Promise<RunSummary> => {
    const left = timeoutMs - (deps.clock.now() - started);
    const request = runRequest(place);
    const run = await deps.runner.run({
      ...request,
      ...(unsigned ? { env: { ...request.env, ...SKIP_SIGNATURES } } : {}),
      ...cacheMount(place, true),
      command,
      network: true,
      timeoutMs: Math.max(1_000, left),
    });
    for (const host of run.refusedHosts ?? []) refused.add(host);
    for (const host of run.unreachableHosts ?? []) unreachable.add(host);
    return run;
  };
  for (const command of plan.commands) {
    let run = await runOnce(command);
    if (!run.passed && !unsigned && UNSIGNED.test(run.output)) {
      unsigned = true;
      run = await runOnce(command);
    }
    if (!run.passed) {
      failed = run;
      break;
    }
  }
  const durationMs = deps.clock.now() - started;
  const base = {
    commands: plan.commands,
    source: plan.source,
    durationMs,
    cache,
    ...(refused.size > 0 ? { refusedHosts: [...refused] } : {}),
    ...(unreachable.size > 0 ? { unreachableHosts: [...unreachable] } : {}),
    ...(unsigned ? { unsignedPackageManager: true } : {}),
  } as const;
  if (failed !== undefined) {
    return {
      ...base,
      status: "failed",
      failure: {
        command: failed.command,
        exitCode: failed.exitCode,
        timedOut: failed.timedOut,
        tail: tailOf(failed.output, REPORT_TAIL_BYTES),
        ...(failed.limit === undefined ? {} : { limit: failed.limit.message }),
      },
    };
  }
  const { restored } = await place.sandbox.keepSetupOutput();
  if (caches !== undefined && folder !== undefined) await caches.markWarm(folder);
  return { ...base, status: "ok", ...(restored.length > 0 ? { restored } : {}) };
}
