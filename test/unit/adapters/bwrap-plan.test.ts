import { describe, expect, it } from "vitest";
import {
  bwrapArgs,
  CACHE_INSIDE,
  RUN_DIR_INSIDE,
  userSwitch,
  type SandboxUser,
} from "../../../src/adapters/sandbox/bwrap-plan.js";
import type { HostView } from "../../../src/adapters/sandbox/host-view.js";
import { NO_PACKAGE_SETTINGS } from "../../../src/adapters/sandbox/package-settings.js";

const view: HostView = {
  systemDirs: [{ path: "/usr" }, { path: "/bin", symlink: "usr/bin" }, { path: "/lib", symlink: "usr/lib" }],
  etc: ["/etc/ssl", "/etc/resolv.conf"],
  toolchains: [
    { path: "/root/.pyenv", masks: [] },
    { path: "/root/.cargo", masks: ["/root/.cargo/credentials.toml"] },
  ],
  path: ["/root/.pyenv/shims", "/usr/bin"],
  env: { PYENV_ROOT: "/root/.pyenv" },
  packageSettings: NO_PACKAGE_SETTINGS,
};
const run = { cwd: "/tmp/app/patchsmith-abc", hasGitDir: true, runDir: "/tmp/patchsmith-run-1", tmpBytes: 1024 };
const root: SandboxUser = { uid: 64500, gid: 64500, privileged: true };
const plain: SandboxUser = { uid: 1000, gid: 1000, privileged: false };

/** The source of every mount of `flag`, by destination. */
function mounts(args: readonly string[], flag: string): Map<string, string> {
  const found = new Map<string, string>();
  args.forEach((arg, index) => {
    if (arg === flag) found.set(args[index + 2]!, args[index + 1]!);
  });
  return found;
}

describe("bwrapArgs", () => {
  it("never shares the host's root, home, /run or /tmp: only the listed folders exist inside", () => {
    const args = bwrapArgs(view, root, run);
    const readOnly = mounts(args, "--ro-bind");
    expect([...readOnly.keys()]).not.toContain("/");
    expect(readOnly.get("/usr")).toBe("/usr");
    expect(readOnly.get("/etc/ssl")).toBe("/etc/ssl");
    expect(readOnly.get("/etc/passwd")).toBe("/tmp/patchsmith-run-1/passwd");
    expect(readOnly.get(RUN_DIR_INSIDE)).toBe(run.runDir);
    expect(readOnly.get("/root/.cargo/credentials.toml")).toBe("/dev/null");
    expect(args.join(" ")).toContain("--symlink usr/bin /bin");
    for (const path of ["/run", "/var/run", "/root", "/home", "/etc/shadow"]) expect(readOnly.has(path)).toBe(false);
    expect(args.join(" ")).toContain("--perms 1777 --size 1024 --tmpfs /tmp");
  });

  it("mounts the clone read-write after the private /tmp, and its .git read-only after the clone", () => {
    const args = bwrapArgs(view, root, run);
    const joined = args.join(" ");
    const tmp = joined.indexOf("--tmpfs /tmp");
    const clone = joined.indexOf(`--bind ${run.cwd} ${run.cwd}`);
    const git = joined.indexOf(`--ro-bind ${run.cwd}/.git ${run.cwd}/.git`);
    expect(tmp).toBeGreaterThanOrEqual(0);
    expect(clone).toBeGreaterThan(tmp);
    expect(git).toBeGreaterThan(clone);
    expect(args.slice(-2)).toEqual(["--chdir", run.cwd]);
    expect(bwrapArgs(view, root, { ...run, hasGitDir: false }).join(" ")).not.toContain(".git");
  });

  it("makes the parents of mount points traversable (the host's /root is 0700)", () => {
    const joined = bwrapArgs(view, root, run).join(" ");
    expect(joined).toContain("--perms 0755 --dir /root --ro-bind /root/.pyenv /root/.pyenv");
    expect(joined).toContain("--perms 0755 --dir /tmp/app --bind /tmp/app/patchsmith-abc");
    expect(joined.match(/--dir \/root /g)).toHaveLength(1);
  });

  it("mounts the cache read-write for set-up and read-only for tests", () => {
    const cache = { dir: "/data/cache/acme-widgets", writable: true };
    expect(mounts(bwrapArgs(view, root, { ...run, cache }), "--bind").get(CACHE_INSIDE)).toBe(cache.dir);
    const readOnly = mounts(bwrapArgs(view, root, { ...run, cache: { ...cache, writable: false } }), "--ro-bind");
    expect(readOnly.get(CACHE_INSIDE)).toBe(cache.dir);
  });

  it("always isolates the network and processes", () => {
    for (const user of [root, plain]) {
      const args = bwrapArgs(view, user, run);
      for (const flag of ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"]) {
        expect(args).toContain(flag);
      }
      expect(args).not.toContain("--share-net");
    }
  });

  it("a root service: no user namespace (it would map onto root); setpriv drops to the sandbox user inside", () => {
    const args = bwrapArgs(view, root, run);
    expect(args).not.toContain("--unshare-user");
    expect(userSwitch(root, "/usr/bin/setpriv")).toEqual([
      "/usr/bin/setpriv",
      "--reuid=64500",
      "--regid=64500",
      "--clear-groups",
      "--bounding-set=-all",
      "--inh-caps=-all",
      "--no-new-privs",
      "--",
    ]);
  });

  it("any other user: its own uid in a user namespace, no capabilities, no nested namespaces", () => {
    const joined = bwrapArgs(view, plain, run).join(" ");
    expect(joined).toContain("--unshare-user --disable-userns --uid 1000 --gid 1000 --cap-drop ALL");
    expect(userSwitch(plain, "/usr/bin/setpriv")).toEqual([]);
  });
});
