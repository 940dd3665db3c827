/**
 * The set-up step: the plan's commands one after another in the sandbox, with the network the operator allows
 * (the package registries, through the egress proxy) and the repository's cache mounted read-write; then what they
 * made is kept out of git's sight. The report says what ran, from where, how long, whether the cache was warm.
 */
import type { RunSummary } from "../ports/sandbox-runner.js";
import type { FixDeps } from "./deps.js";
import type { SetupPlan } from "./setup-plan.js";
import { cacheMount, runRequest, type RunPlace } from "./run-place.js";
import { missingDistribution } from "./python-setup.js";
import { failedDependencyScript } from "./setup-failure.js";
import { tailOf } from "./test-output.js";

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
  /** npm found conflicting peer dependencies, and installed them as npm 6 did (`--legacy-peer-deps`). */
  readonly legacyPeerDeps?: boolean;
  /**
   * Yarn 1 refused a dependency whose `engines` does not admit this Node, and installed ignoring engines: its
   * message (`semantic-release@25.0.3: The engine "node" is incompatible…`).
   */
  readonly ignoredEngines?: string;
  /**
   * A dependency's install script failed (a native module with no prebuilt binary and no compiler here), and set-up
   * installed without install scripts: which one, and its command.
   */
  readonly ignoredScripts?: string;
  /**
   * pip could not get this requirement (no index reachable, or none with that version), and the Python set-up went
   * on over the machine's packages (python-setup.ts).
   */
  readonly machinePackages?: string;
}

/**
 * A failure set-up answers by running the same command once more with an environment npm or corepack documents
 * for it, and says so in the report. Each is asked for at most once a set-up, and stays on for the commands after.
 */
interface Relaxation {
  readonly name: "unsignedPackageManager" | "legacyPeerDeps" | "ignoredEngines" | "ignoredScripts";
  /** Whether the output shows the failure this answers, and what the report says of it (a quote, or that it did). */
  readonly answers: (output: string) => string | true | undefined;
  readonly env: Readonly<Record<string, string>>;
  /** Only for commands set-up detected itself: a command the repository or the request gave is run as written. */
  readonly detectedOnly: boolean;
}

/** Answers output that `pattern` matches; the report quotes its first group, if it has one. */
const matching =
  (pattern: RegExp) =>
  (output: string): string | true | undefined => {
    const match = pattern.exec(output);
    return match === null ? undefined : (match[1] ?? true);
  };

const RELAXATIONS: readonly Relaxation[] = [
  {
    // corepack refusing a package manager because the registry's metadata carries no signature it knows (a mirror
    // or a proxy that strips `dist.signatures`, or keys newer than this corepack's). It is told to skip the check:
    // the package manager then comes from the registry as the dependencies do (npm and pnpm check no signature
    // either), so the project's trust in its registry is what it was.
    name: "unsignedPackageManager",
    answers: matching(/No compatible signature found in package metadata|Cannot find matching keyid/),
    env: { COREPACK_INTEGRITY_KEYS: "0" },
    detectedOnly: false,
  },
  {
    // npm 7+ refusing a tree whose peer dependencies conflict (ERESOLVE), which npm 6 installed: common in projects
    // without a lockfile whose own CI installs with `--legacy-peer-deps`, the switch npm's message suggests.
    name: "legacyPeerDeps",
    answers: matching(/^npm (?:error|ERR!) code ERESOLVE$/m),
    env: { npm_config_legacy_peer_deps: "true" },
    detectedOnly: true,
  },
  {
    // Yarn 1 refusing to install a package whose `engines` excludes this Node (npm and pnpm only warn): a dev tool
    // that wants a newer Node than the machine's (a release tool, a docs generator) stops the whole install, though
    // the tests never run it. Its `--ignore-engines`, as a variable; the report quotes the refusal.
    name: "ignoredEngines",
    answers: matching(
      /^error (\S+: The engine "[^"]+" is incompatible with this module\. Expected version "[^"]*"\. Got "[^"]*")$/m,
    ),
    env: { YARN_IGNORE_ENGINES: "true" },
    detectedOnly: true,
  },
  {
    // A dependency's install script failing: most often a native module that finds no prebuilt binary for this
    // machine and no compiler (the Docker image has none), a dev tool the tests seldom need. Stopping there runs no
    // test at all; installed without install scripts (npm's and pnpm's `--ignore-scripts`, Yarn 1's, Berry's
    // `enableScripts: false`), the tests run, and the ones that need what a script makes fail before any change too.
    name: "ignoredScripts",
    answers: (output) => {
      const script = failedDependencyScript(output);
      return script === undefined ? undefined : `\`${script.name}\` (\`${script.command}\`)`;
    },
    env: { npm_config_ignore_scripts: "true", YARN_IGNORE_SCRIPTS: "true", YARN_ENABLE_SCRIPTS: "false" },
    detectedOnly: true,
  },
];

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
  /** The relaxations asked for so far, each with what it answered (what the report says of it). */
  const answered = new Map<Relaxation, string | true>();
  const runOnce = async (command: string): Promise<RunSummary> => {
    const left = timeoutMs - (deps.clock.now() - started);
    const request = runRequest(place);
    const relaxedEnv = Object.assign({}, ...[...answered.keys()].map((r) => r.env)) as Record<string, string>;
    const run = await deps.runner.run({
      ...request,
      ...(answered.size > 0 ? { env: { ...request.env, ...relaxedEnv } } : {}),
      ...cacheMount(place, true),
      command,
      network: true,
      timeoutMs: Math.max(1_000, left),
    });
    for (const host of run.refusedHosts ?? []) refused.add(host);
    for (const host of run.unreachableHosts ?? []) unreachable.add(host);
    return run;
  };
  const answer = (run: RunSummary): { relaxation: Relaxation; said: string | true } | undefined => {
    for (const relaxation of RELAXATIONS) {
      if (answered.has(relaxation) || (relaxation.detectedOnly && plan.source !== "detected")) continue;
      const said = relaxation.answers(run.output);
      if (said !== undefined) return { relaxation, said };
    }
    return undefined;
  };
  /** The commands run, in order: the plan's, with the Python fallback's in place of the Python ones it replaced. */
  const ran: string[] = [];
  const runAnswered = async (command: string): Promise<RunSummary> => {
    ran.push(command);
    let run = await runOnce(command);
    for (let next = answer(run); !run.passed && next !== undefined; next = answer(run)) {
      answered.set(next.relaxation, next.said);
      run = await runOnce(command);
    }
    return run;
  };
  /** The requirement pip could not get, when the Python set-up went on over the machine's packages. */
  let machinePackages: string | undefined;
  const fallback = plan.pythonFallback;
  for (const command of plan.commands) {
    const replaceable = fallback?.replaces.includes(command) === true;
    // Once the stand-in ran, the Python commands it replaced are not run.
    if (replaceable && machinePackages !== undefined) continue;
    let run = await runAnswered(command);
    const missing = run.passed || !replaceable ? undefined : missingDistribution(run.output);
    if (missing !== undefined) {
      machinePackages = missing;
      for (const standIn of fallback!.commands) {
        run = await runAnswered(standIn);
        if (!run.passed) break;
      }
    }
    if (!run.passed) {
      failed = run;
      break;
    }
  }
  const durationMs = deps.clock.now() - started;
  const base = {
    commands: machinePackages === undefined ? plan.commands : ran,
    source: plan.source,
    durationMs,
    cache,
    ...(refused.size > 0 ? { refusedHosts: [...refused] } : {}),
    ...(unreachable.size > 0 ? { unreachableHosts: [...unreachable] } : {}),
    ...Object.fromEntries([...answered].map(([relaxation, said]) => [relaxation.name, said])),
    ...(machinePackages === undefined ? {} : { machinePackages }),
  } as const;
  if (failed !== undefined) {
    return {
      ...base,
      status: "failed",
      failure: {
        command: failed.command,
        exitCode: failed.exitCode,
        timedOut: failed.timedOut,
        tail: tailOf(failed.output),
        ...(failed.limit === undefined ? {} : { limit: failed.limit.message }),
      },
    };
  }
  const { restored } = await place.sandbox.keepSetupOutput();
  if (caches !== undefined && folder !== undefined) await caches.markWarm(folder);
  return { ...base, status: "ok", ...(restored.length > 0 ? { restored } : {}) };
}

/** What the report's notes say of a set-up that succeeded only after an answer, or that changed tracked files. */
export function setupNotes(setup: SetupReport): string[] {
  const notes: string[] = [];
  if (setup.unsignedPackageManager === true) {
    notes.push(
      "corepack found no registry signature it knows for the package manager package.json names (a registry mirror " +
        "or proxy may strip them), so set-up installed it unchecked, as the dependencies are installed. Naming it " +
        "with its hash (`corepack use pnpm@x.y.z` writes one) lets corepack check it.",
    );
  }
  if (setup.legacyPeerDeps === true) {
    notes.push(
      "npm could not install the dependencies as they are declared: their peer dependencies conflict (ERESOLVE). " +
        "Set-up installed them as npm 6 did (`--legacy-peer-deps`), as npm suggests; a lockfile, or that flag in " +
        "`setup:` of .github/patchsmith.yml, says so once for every run.",
    );
  }
  if (setup.ignoredEngines !== undefined) {
    notes.push(
      `Yarn refused a dependency that does not support this machine's Node (${setup.ignoredEngines}). ` +
        "Set-up installed ignoring engines (`--ignore-engines`); a test that needs that Node may fail here (the " +
        "Docker image runs the current LTS).",
    );
  }
  if (setup.ignoredScripts !== undefined) {
    notes.push(
      `The install script of the dependency ${setup.ignoredScripts} failed, so set-up installed without install ` +
        "scripts (`--ignore-scripts`), the project's own included: tests that need what they make fail here before " +
        "any change too. `setup:` in .github/patchsmith.yml can name the commands that make it.",
    );
  }
  if (setup.machinePackages !== undefined) {
    notes.push(
      `pip could not get \`${setup.machinePackages}\` (no package index it could reach has it), so set-up made the ` +
        "virtual environment over this machine's Python packages and put the clone's code on its path: a test that " +
        "needs a package this machine lacks fails before any change too. An index that has what the project " +
        "declares (`PIP_INDEX_URL` in the service's environment, or in `env:` of .github/patchsmith.yml) installs it.",
    );
  }
  if (setup.restored !== undefined) {
    notes.push(`Set-up changed tracked files, which were put back before the tests: ${setup.restored.join(", ")}.`);
  }
  return notes;
}
