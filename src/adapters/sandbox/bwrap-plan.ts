/**
 * The bubblewrap command line for one run (pure). An allow-list: a new empty root holding only the system folders
 * and toolchains (read-only), a minimal `/etc`, the run's own folder (read-only: passwd, shims, the egress socket),
 * a private `/tmp` (the home lives there), the clone read-write with its `.git` read-only, and the repository's
 * cache. Nothing else of the host exists inside: no `/run`, no host `/tmp`, no home folder, no other clone.
 *
 * Two ways to become the sandbox user:
 * - `privileged` (the service runs as root): bwrap runs as root without a user namespace, builds the mounts, then
 *   `setpriv` inside switches to the dedicated unprivileged uid and gid with no capabilities, an empty bounding set
 *   and no-new-privs. A user namespace is not used because bwrap would map the sandbox user onto root.
 * - unprivileged (any other user): bwrap makes a user namespace mapping the caller's own uid, drops every
 *   capability and forbids further user namespaces.
 */
import { dirname, join } from "node:path";
import type { HostView } from "./host-view.js";

/** The size of the sandbox's /dev/shm: Docker's default. */
export const SHM_BYTES = 64 * 1024 * 1024;

/** Where the run's own folder is mounted inside: passwd, group, gitconfig, the shims' bin, the egress socket. */
export const RUN_DIR_INSIDE = "/run/patchsmith";
/** Where the repository's package cache is mounted inside. */
export const CACHE_INSIDE = "/var/cache/patchsmith";
/** The sandbox user's home, created by the command's wrapper on the private /tmp. */
export const HOME_INSIDE = "/tmp/home";

export interface SandboxUser {
  readonly uid: number;
  readonly gid: number;
  /** True when patchsmith runs as root and switches to `uid`/`gid` (see the file comment). */
  readonly privileged: boolean;
}

export interface RunMounts {
  readonly cwd: string;
  readonly hasGitDir: boolean;
  /** The run's folder on the host (mounted read-only at RUN_DIR_INSIDE). */
  readonly runDir: string;
  readonly cache?: { readonly dir: string; readonly writable: boolean };
  /** Size of the private /tmp (a tmpfs: memory, charged to the run's memory limit where cgroups enforce it). */
  readonly tmpBytes: number;
}

const ancestors = (path: string): string[] => {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== "/" && dir !== "."; dir = dirname(dir)) out.unshift(dir);
  return out;
};

/**
 * Mount points' parent folders, made explicitly world-traversable before the mounts: bwrap otherwise copies the
 * host parent's mode (`/root` is 0700), and the unprivileged sandbox user could not reach a toolchain under it.
 * Inside a read-only mount nothing can be made (nor needs to be: the host's folders are there).
 */
class Tree {
  private readonly made = new Set<string>(["/"]);
  private readonly readOnly: string[] = [];
  constructor(private readonly args: string[]) {}

  private insideReadOnly(path: string): boolean {
    return this.readOnly.some((dir) => path === dir || path.startsWith(`${dir}/`));
  }

  parents(path: string): void {
    for (const dir of ancestors(path)) {
      if (this.made.has(dir) || this.insideReadOnly(dir)) continue;
      this.args.push("--perms", "0755", "--dir", dir);
      this.made.add(dir);
    }
  }

  mounted(path: string, readOnly: boolean): void {
    this.made.add(path);
    if (readOnly) this.readOnly.push(path);
  }
}

/** The bwrap arguments up to (excluding) the command. */
export function bwrapArgs(view: HostView, user: SandboxUser, run: RunMounts): string[] {
  // Always a network namespace of its own: set-up reaches registries only through the egress proxy's socket in the
  // run folder, so no host port (Redis, the App itself, a cloud metadata address) and no abstract socket is reachable.
  const args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  if (!user.privileged) {
    args.push(
      "--unshare-user",
      "--disable-userns",
      "--uid",
      String(user.uid),
      "--gid",
      String(user.gid),
      "--cap-drop",
      "ALL",
    );
  }
  args.push("--die-with-parent", "--new-session", "--hostname", "sandbox");
  const tree = new Tree(args);
  for (const dir of view.systemDirs) {
    if (dir.symlink !== undefined) args.push("--symlink", dir.symlink, dir.path);
    else args.push("--ro-bind", dir.path, dir.path);
    tree.mounted(dir.path, true);
  }
  // A /dev/shm the sandbox user can write, as on any host: POSIX semaphores live there (Python's multiprocessing
  // locks, pytest-xdist, flake8's worker pool); bounded as Docker bounds its own.
  args.push("--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", String(SHM_BYTES), "--tmpfs", "/dev/shm");
  tree.mounted("/proc", true);
  tree.mounted("/dev", true);
  args.push("--perms", "0755", "--dir", "/etc");
  tree.mounted("/etc", false);
  for (const entry of view.etc) args.push("--ro-bind", entry, entry);
  for (const name of ["passwd", "group"]) args.push("--ro-bind", join(run.runDir, name), `/etc/${name}`);
  args.push("--perms", "1777", "--size", String(run.tmpBytes), "--tmpfs", "/tmp");
  tree.mounted("/tmp", false);
  for (const toolchain of view.toolchains) {
    tree.parents(toolchain.path);
    args.push("--ro-bind", toolchain.path, toolchain.path);
    tree.mounted(toolchain.path, true);
    for (const mask of toolchain.masks) args.push("--ro-bind", "/dev/null", mask);
  }
  tree.parents(RUN_DIR_INSIDE);
  args.push("--ro-bind", run.runDir, RUN_DIR_INSIDE);
  if (run.cache !== undefined) {
    tree.parents(CACHE_INSIDE);
    args.push(run.cache.writable ? "--bind" : "--ro-bind", run.cache.dir, CACHE_INSIDE);
  }
  tree.parents(run.cwd);
  args.push("--bind", run.cwd, run.cwd);
  // Hooks or core.fsmonitor planted here would run in our own later git commands, outside the sandbox.
  if (run.hasGitDir) args.push("--ro-bind", join(run.cwd, ".git"), join(run.cwd, ".git"));
  args.push("--chdir", run.cwd);
  return args;
}

/** What runs the command inside, after bwrap: the switch to the sandbox user when bwrap itself ran as root. */
export function userSwitch(user: SandboxUser, setpriv: string): string[] {
  if (!user.privileged) return [];
  return [
    setpriv,
    `--reuid=${String(user.uid)}`,
    `--regid=${String(user.gid)}`,
    "--clear-groups",
    "--bounding-set=-all",
    "--inh-caps=-all",
    "--no-new-privs",
    "--",
  ];
}
