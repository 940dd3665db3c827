/**
 * How a test command is wrapped in bubblewrap: no network, own PID namespace (the whole tree dies with us), no
 * capabilities, the file system read-only except the clone, the clone's `.git` read-only, secrets' files hidden.
 */
import { execFile } from "node:child_process";
import { lstat, mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Inside the sandbox HOME lives on the private /tmp, so nothing a test writes there survives or leaks. */
export const SANDBOX_HOME = "/tmp/home";

/** Places under the real HOME where credentials usually live; hidden when they exist. */
const HOME_SECRETS = [
  ".ssh",
  ".gnupg",
  ".git-credentials",
  ".netrc",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".docker",
  ".kube",
  ".aws",
  ".azure",
  ".config/gh",
  ".config/gcloud",
  ".config/hub",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  // The App's job store when PATCHSMITH_DATA_DIR is not set.
  ".local/state/patchsmith",
];

/** Variables whose value is the path of something private (the App key, the job store, cloud credentials). */
const SECRET_PATH_VARIABLES = [
  "PRIVATE_KEY_PATH",
  "PATCHSMITH_DATA_DIR",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_SHARED_CREDENTIALS_FILE",
];

export interface HiddenPaths {
  readonly dirs: readonly string[];
  readonly files: readonly string[];
}

export interface BwrapPlan {
  readonly cwd: string;
  /** Folders replaced by an empty tmpfs (the host's temp folders: other jobs' clones live there). */
  readonly privateDirs: readonly string[];
  readonly hidden: HiddenPaths;
  /** Whether `cwd/.git` exists and must be bound read-only. */
  readonly hasGitDir: boolean;
}

/** The bwrap argument list (pure), up to and excluding the command. */
export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = [
    "--unshare-user",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // When we run as root, bwrap would keep full capabilities inside: map to an ordinary user and drop them all.
    "--uid",
    "1000",
    "--gid",
    "1000",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  const privateDirs = [...new Set(["/tmp", ...plan.privateDirs])];
  for (const dir of privateDirs) args.push("--tmpfs", dir);
  args.push("--dir", SANDBOX_HOME);
  // Paths inside a private folder are already gone (and could not be mounted over there).
  const visible = (path: string): boolean => !privateDirs.some((dir) => path.startsWith(`${dir}/`));
  for (const dir of plan.hidden.dirs.filter(visible)) args.push("--tmpfs", dir);
  for (const file of plan.hidden.files.filter(visible)) args.push("--ro-bind", "/dev/null", file);
  args.push("--bind", plan.cwd, plan.cwd);
  // Hooks or core.fsmonitor planted here would run in our own later git commands, outside the sandbox.
  if (plan.hasGitDir) args.push("--ro-bind", join(plan.cwd, ".git"), join(plan.cwd, ".git"));
  args.push("--chdir", plan.cwd);
  return args;
}

async function kindOf(path: string): Promise<"dir" | "file" | undefined> {
  try {
    const real = await realpath(path);
    const stat = await lstat(real);
    return stat.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

/** Existing secret locations to cover: credential folders under HOME, key files named by variables, extra paths. */
export async function findHiddenPaths(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly string[],
): Promise<HiddenPaths> {
  const candidates = [
    ...HOME_SECRETS.map((name) => join(homedir(), name)),
    ...SECRET_PATH_VARIABLES.map((name) => env[name]).filter((value): value is string => value !== undefined),
    // `patchsmith serve` loads ./.env, where probot's set-up page writes the App's key and webhook secret.
    join(process.cwd(), ".env"),
    ...extra,
  ];
  const dirs: string[] = [];
  const files: string[] = [];
  for (const candidate of new Set(candidates)) {
    const real = await realpath(candidate).catch(() => undefined);
    if (real === undefined) continue;
    const kind = await kindOf(real);
    if (kind === "dir") dirs.push(real);
    else if (kind === "file") files.push(real);
  }
  return { dirs, files };
}

/**
 * The private temp folders: /tmp, the OS temp dir, and the folder holding the clone (siblings are other jobs'
 * clones), unless that folder is the root or holds the clone's own toolchain (never hide an ancestor of HOME).
 */
export function privateDirsFor(cwd: string): string[] {
  const dirs = [tmpdir()];
  const parent = dirname(cwd);
  const home = homedir();
  if (parent !== "/" && parent !== cwd && !`${home}/`.startsWith(`${parent}/`)) dirs.push(parent);
  return dirs;
}

export async function hasGitDir(cwd: string): Promise<boolean> {
  return (await kindOf(join(cwd, ".git"))) === "dir";
}

export interface BwrapProbe {
  readonly ok: boolean;
  readonly detail: string;
}

/** bwrap is present AND a real sandboxed run works here (user namespaces may be disabled, e.g. by seccomp). */
export async function probeBwrap(binary: string): Promise<BwrapProbe> {
  let version: string;
  try {
    version = (await run(binary, ["--version"], { timeout: 10_000 })).stdout.trim();
  } catch (error) {
    return {
      ok: false,
      detail: `${binary} --version failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "patchsmith-probe-"));
  try {
    await mkdir(join(dir, ".git"));
    const plan: BwrapPlan = {
      cwd: dir,
      privateDirs: privateDirsFor(dir),
      hidden: { dirs: [], files: [] },
      hasGitDir: true,
    };
    const script = "touch ./written && ! touch .git/written 2>/dev/null";
    await run(binary, [...bwrapArgs(plan), "sh", "-c", script], { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } });
    if ((await kindOf(join(dir, "written"))) !== "file") return { ok: false, detail: "the sandbox could not write" };
    return { ok: true, detail: version };
  } catch (error) {
    return { ok: false, detail: `sandbox probe failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
