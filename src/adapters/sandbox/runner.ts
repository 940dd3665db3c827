/**
 * The real SandboxRunner: a repository's set-up and tests under bubblewrap (bwrap-plan.ts), as the sandbox user
 * (sandbox-user.ts), within the run's limits (limit-enforcer.ts), with set-up's network through the egress proxy
 * (egress-proxy.ts). Without bwrap (the CLI's fallback, with a warning) the same command runs as a plain child
 * process with the same environment and limits, which is all an unprivileged process can do.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { redactSecrets } from "../../core/redact.js";
import type { RunSummary, SandboxDescription, SandboxRunner, SandboxRunRequest } from "../../ports/sandbox-runner.js";
import { bwrapArgs, CACHE_INSIDE, HOME_INSIDE, RUN_DIR_INSIDE, userSwitch, type SandboxUser } from "./bwrap-plan.js";
import { DEFAULT_SETUP_RULES, type EgressRule } from "./egress-rules.js";
import { FORWARDER_PORT, startEgressProxy, type EgressProxy } from "./egress-proxy.js";
import { findProgram, readHostView, type HostView } from "./host-view.js";
import { chooseEnforcer, type LimitEnforcer } from "./limit-enforcer.js";
import { formatBytes } from "../../core/bytes.js";
import { watchDisk } from "./disk-watch.js";
import { DEFAULT_LIMITS, guessLimitFromOutput, limitHit, type LimitSettings } from "./limits.js";
import { handOver } from "./ownership.js";
import { runProcess } from "./process.js";
import { makeRunDir } from "./run-dir.js";
import { skippedDownloads } from "./download-skips.js";
import { sandboxEnv, type NetworkMode } from "./sandbox-env.js";
import { resolveSandboxUser } from "./sandbox-user.js";
import { unreadableBy } from "./readable-by.js";
import { probeSandbox } from "./probe.js";

export type SandboxMode = "bwrap" | "none" | "auto";

export interface SandboxRunnerOptions {
  /** "auto" (default) uses bubblewrap when a probe run works, else runs unsandboxed with a warning. */
  readonly mode?: SandboxMode;
  readonly bwrapBinary?: string;
  /** PATCHSMITH_SANDBOX_USER: the account (or uid:gid) sandboxed commands run as under a root service. */
  readonly user?: string;
  readonly limits?: LimitSettings;
  /** Hosts set-up may reach through the egress proxy (default: the public package registries). */
  readonly setupHosts?: readonly EgressRule[];
  /** False: set-up gets no network either, only what the caches hold (PATCHSMITH_SETUP_NETWORK=off). */
  readonly setupNetwork?: boolean;
  /** Extra read-only folders (PATCHSMITH_SANDBOX_READONLY), e.g. a toolchain the PATH does not name. */
  readonly readOnly?: readonly string[];
  /** Known secret values to redact from the output (token shapes are always redacted). */
  readonly secrets?: readonly string[];
  /** Where run folders are made (default: the OS temp folder). */
  readonly runRoot?: string;
  /** How limits are enforced: the best the machine offers ("auto"), or rlimits only (tests of that path). */
  readonly enforcer?: "auto" | "rlimit";
}

export const DEFAULT_MAX_OUTPUT_BYTES = 2 * 1024 * 1024;

export const UNSANDBOXED_WARNING =
  "commands ran without a sandbox (bubblewrap unavailable): they had the network and could read every file this " +
  "process can read, and a process that double-forks into its own session can outlive the timeout";

interface Context {
  readonly mode: "bwrap" | "none";
  readonly bwrap: string;
  readonly setpriv: string;
  readonly user: SandboxUser;
  readonly view: HostView;
  readonly enforcer: LimitEnforcer;
  readonly description: SandboxDescription;
}

async function prepareContext(options: SandboxRunnerOptions, limits: LimitSettings): Promise<Context> {
  const programs = {
    bwrap: await findProgram(options.bwrapBinary ?? "bwrap", process.env.PATH),
    setpriv: await findProgram("setpriv", process.env.PATH),
  };
  const resolved = await resolveSandboxUser(options.user);
  if (!resolved.ok) throw new Error(resolved.message);
  const user = resolved.user;
  const view = await readHostView({
    env: process.env,
    home: homedir(),
    execPath: process.execPath,
    extraReadOnly: options.readOnly ?? [],
  });
  const enforcer = await chooseEnforcer(
    limits,
    await findProgram("prlimit", process.env.PATH),
    options.enforcer ?? "auto",
  );
  const limitText =
    `limits ${formatBytes(limits.memoryBytes)}, ${String(limits.processes)} tasks, ` +
    `${String(limits.cpuSeconds)} s CPU (${enforcer.kind}), ${formatBytes(limits.diskBytes)} of disk (watched)`;
  // An operator whose private index never reaches set-up learns why where the sandbox is described.
  const { withheld, paths } = view.packageSettings;
  const settingsText = withheld.length === 0 ? "" : ` · ${withheld.join(", ")} left out (credentials)`;
  // Shown read-only, but a folder only the service's user may enter stays empty to the sandbox's user.
  const unreadable = user.privileged ? await unreadableBy(paths, user) : [];
  const unreadableText =
    unreadable.length === 0
      ? ""
      : ` · ${unreadable.join(", ")} (named by the host's package settings) unreadable by the sandbox user: ` +
        "make them readable by every user";
  const terms = `${limitText}${settingsText}${unreadableText}`;
  const who = user.privileged ? `sandbox user ${String(user.uid)}:${String(user.gid)}` : `own user ${String(user.uid)}`;
  if (options.mode !== "none") {
    const probe = await probeSandbox(programs, view, user);
    if (probe.ok && programs.bwrap !== undefined) {
      const detail = `${probe.detail} · ${who} · ${terms}`;
      const found = { bwrap: programs.bwrap, setpriv: programs.setpriv ?? "setpriv" };
      return { mode: "bwrap", ...found, user, view, enforcer, description: { sandbox: "bwrap", detail } };
    }
    if (options.mode === "bwrap") {
      throw new Error(
        `the sandbox (bubblewrap) is required but does not work here (${probe.detail}); install it ` +
          "(apt-get install bubblewrap) and allow user namespaces (Docker: see docs/install-app.md), or set " +
          "PATCHSMITH_TEST_SANDBOX=none to run repositories' code without a sandbox, which is unsafe for untrusted code",
      );
    }
    const warning = `${UNSANDBOXED_WARNING} (${probe.detail})`;
    const description = { sandbox: "none", warning, detail: `no sandbox · ${terms}` } as const;
    return { mode: "none", bwrap: "bwrap", setpriv: "setpriv", user, view, enforcer, description };
  }
  return {
    mode: "none",
    bwrap: "bwrap",
    setpriv: "setpriv",
    user,
    view,
    enforcer,
    description: { sandbox: "none", warning: UNSANDBOXED_WARNING, detail: `sandbox disabled · ${terms}` },
  };
}

/** The shell script the sandbox runs: output merged, a home of its own, the egress forwarder for set-up. */
function script(command: string, forwarder: { node: string; file: string; socket: string } | undefined): string {
  const lines = ["exec 2>&1", 'mkdir -p "$HOME"'];
  if (forwarder !== undefined) {
    const ready = "/tmp/.patchsmith-forwarder-ready";
    lines.push(
      `'${forwarder.node}' '${forwarder.file}' '${forwarder.socket}' ${String(FORWARDER_PORT)} ${ready} &`,
      `i=0; while [ ! -e ${ready} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
    );
  }
  lines.push(command);
  return lines.join("\n");
}

export interface SandboxedRunSummary extends RunSummary {
  readonly sandbox: "bwrap" | "none";
  readonly warning?: string;
}

export interface SandboxedRunner extends SandboxRunner {
  run(request: SandboxRunRequest): Promise<SandboxedRunSummary>;
}

export function createSandboxRunner(options: SandboxRunnerOptions = {}): SandboxedRunner {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const setupHosts = options.setupHosts ?? DEFAULT_SETUP_RULES;
  const downloadSkips = skippedDownloads(setupHosts);
  let context: Promise<Context> | undefined;
  const ready = (): Promise<Context> => (context ??= prepareContext(options, limits));

  async function run(request: SandboxRunRequest): Promise<SandboxedRunSummary> {
    const ctx = await ready();
    const sandboxed = ctx.mode === "bwrap";
    const wantsNetwork = request.network === true && options.setupNetwork !== false;
    const network: NetworkMode = !wantsNetwork ? "none" : sandboxed ? "proxy" : "host";
    const runDir = await makeRunDir(options.runRoot ?? tmpdir(), ctx.user, request.shims ?? {}, network === "proxy");
    let proxy: EgressProxy | undefined;
    let plainHome: string | undefined;
    try {
      if (sandboxed && ctx.user.privileged) {
        await handOver(request.cwd, ctx.user.uid, ctx.user.gid);
        if (request.cache !== undefined) {
          await mkdir(request.cache.dir, { recursive: true, mode: 0o700 });
          await handOver(request.cache.dir, ctx.user.uid, ctx.user.gid);
        }
      } else if (request.cache !== undefined) await mkdir(request.cache.dir, { recursive: true, mode: 0o700 });
      const inside = (name: string): string => (sandboxed ? join(RUN_DIR_INSIDE, name) : join(runDir.dir, name));
      if (network === "proxy") {
        // The registries the host's own package settings name are reachable as the public ones are.
        const hosts = [...setupHosts, ...ctx.view.packageSettings.hosts];
        proxy = await startEgressProxy(join(runDir.dir, runDir.socketName), hosts);
      }
      if (!sandboxed) plainHome = await mkdtemp(join(tmpdir(), "patchsmith-home-"));
      const home = sandboxed ? HOME_INSIDE : plainHome!;
      const cacheRoot = request.cache === undefined ? undefined : sandboxed ? CACHE_INSIDE : request.cache.dir;
      const env = sandboxEnv({
        host: process.env,
        toolchainEnv: sandboxed ? ctx.view.env : {},
        packageSettings: ctx.view.packageSettings.env,
        path: [
          inside(runDir.binName),
          ...(request.path ?? []),
          ...(sandboxed ? ctx.view.path : (process.env.PATH ?? "").split(":")),
        ],
        home,
        gitConfig: sandboxed ? inside("gitconfig") : undefined,
        network,
        cacheEnv: cacheRoot === undefined || request.cache === undefined ? {} : request.cache.env(cacheRoot),
        downloadSkips,
        extra: request.env ?? {},
      });
      const forwarder =
        network === "proxy"
          ? { node: process.execPath, file: inside(runDir.forwarderName), socket: inside(runDir.socketName) }
          : undefined;
      const shell = ["/bin/sh", "-c", script(request.command, forwarder)];
      // The output file is made in the run folder: a suite that prints without end takes that volume's disk.
      const disk = await watchDisk(
        [request.cwd, runDir.dir, ...(request.cache?.writable === true ? [request.cache.dir] : [])],
        limits.diskBytes,
      );
      const runLimits = await ctx.enforcer.start(randomUUID().slice(0, 8));
      const argv = sandboxed
        ? [
            ...runLimits.prefix,
            ctx.bwrap,
            ...bwrapArgs(ctx.view, ctx.user, {
              cwd: request.cwd,
              hasGitDir: existsSync(join(request.cwd, ".git")),
              runDir: runDir.dir,
              ...(request.cache === undefined
                ? {}
                : { cache: { dir: request.cache.dir, writable: request.cache.writable } }),
              tmpBytes: limits.memoryBytes,
            }),
            ...userSwitch(ctx.user, ctx.setpriv),
            ...shell,
          ]
        : [...runLimits.prefix, ...shell];
      let outcome;
      let measured;
      try {
        outcome = await runProcess({
          argv,
          cwd: request.cwd,
          env,
          timeoutMs: Math.max(1_000, request.timeoutMs),
          maxOutputBytes: request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
          outputDir: runDir.dir,
          onStarted: (pid) => runLimits.attach(pid),
          shouldStop: async () => {
            const used = await runLimits.cpuSeconds();
            if (used !== undefined && used > limits.cpuSeconds) return "cpu-time";
            return (await disk.exhausted()) ? "disk" : undefined;
          },
        });
      } finally {
        measured = await runLimits.finish();
      }
      // Colour codes stay in the run (CI=true makes many tools colour) but not in what the model and reports read.
      const output = redactSecrets(stripVTControlCharacters(outcome.output), options.secrets ?? []);
      const guessed =
        ctx.enforcer.kind === "rlimit" && outcome.exitCode !== 0
          ? guessLimitFromOutput(output, outcome.exitCode)
          : undefined;
      const kind =
        outcome.stopped === "cpu-time" || outcome.stopped === "disk" ? outcome.stopped : (measured ?? guessed);
      const certain = outcome.stopped !== undefined || measured !== undefined;
      return {
        command: request.command,
        passed: outcome.exitCode === 0 && !outcome.timedOut && outcome.stopped === undefined,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        output,
        droppedBytes: outcome.droppedBytes,
        durationMs: outcome.durationMs,
        ...(kind === undefined ? {} : { limit: limitHit(kind, limits, certain) }),
        sandbox: ctx.mode,
        ...(ctx.description.warning === undefined ? {} : { warning: ctx.description.warning }),
        ...(proxy !== undefined && proxy.refused.length > 0 ? { refusedHosts: [...proxy.refused] } : {}),
        ...(proxy !== undefined && proxy.unreachable.length > 0 ? { unreachableHosts: [...proxy.unreachable] } : {}),
      };
    } finally {
      await proxy?.close();
      await runDir.remove();
      if (plainHome !== undefined) await rm(plainHome, { recursive: true, force: true });
    }
  }

  async function reclaim(dir: string): Promise<void> {
    const ctx = await ready();
    if (ctx.mode === "bwrap" && ctx.user.privileged)
      await handOver(dir, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
  }

  return { run, reclaim, describe: async () => (await ready()).description };
}
