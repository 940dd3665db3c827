/**
 * Does the sandbox work here, exactly as runs will use it? bwrap may be missing, user namespaces may be disabled
 * (Docker's default seccomp profile), `setpriv` may be missing under a root service. A probe run in a throwaway
 * folder must write its working tree, fail to write `.git`, and run as the sandbox user.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bwrapArgs, userSwitch, type SandboxUser } from "./bwrap-plan.js";
import type { HostView } from "./host-view.js";
import { makeRunDir } from "./run-dir.js";
import { handOver } from "./ownership.js";

const run = promisify(execFile);

export interface SandboxProbe {
  readonly ok: boolean;
  /** The bwrap version, or why the sandbox does not work. */
  readonly detail: string;
}

export interface SandboxPrograms {
  readonly bwrap: string | undefined;
  readonly setpriv: string | undefined;
}

const describe = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").slice(0, 3).join(" ").trim();
};

export async function probeSandbox(
  programs: SandboxPrograms,
  view: HostView,
  user: SandboxUser,
): Promise<SandboxProbe> {
  if (programs.bwrap === undefined) return { ok: false, detail: "bwrap is not installed" };
  if (user.privileged && programs.setpriv === undefined) {
    return {
      ok: false,
      detail: "setpriv (util-linux) is not installed, and a root service needs it to drop to the sandbox user",
    };
  }
  let version: string;
  try {
    version = (await run(programs.bwrap, ["--version"], { timeout: 10_000 })).stdout.trim();
  } catch (error) {
    return { ok: false, detail: `${programs.bwrap} --version failed: ${describe(error)}` };
  }
  const dir = await mkdtemp(join(tmpdir(), "patchsmith-probe-"));
  const runDir = await makeRunDir(tmpdir(), user, {}, false);
  try {
    await mkdir(join(dir, ".git"));
    if (user.privileged) await handOver(dir, user.uid, user.gid);
    const args = bwrapArgs(view, user, { cwd: dir, hasGitDir: true, runDir: runDir.dir, tmpBytes: 64 * 1024 * 1024 });
    const script = "touch ./written && ! touch .git/written 2>/dev/null && id -u";
    const argv = [...args, ...userSwitch(user, programs.setpriv ?? "setpriv"), "/bin/sh", "-c", script];
    const { stdout } = await run(programs.bwrap, argv, { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } });
    await readFile(join(dir, "written"));
    if (stdout.trim() !== String(user.uid)) {
      return { ok: false, detail: `the probe ran as uid ${stdout.trim()}, not the sandbox user ${String(user.uid)}` };
    }
    return { ok: true, detail: version };
  } catch (error) {
    return { ok: false, detail: `sandbox probe failed: ${describe(error)}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await runDir.remove();
  }
}
