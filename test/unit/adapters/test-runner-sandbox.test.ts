import { describe, expect, it } from "vitest";
import { bwrapArgs, privateDirsFor, SANDBOX_HOME } from "../../../src/adapters/test-runner-sandbox.js";

const plan = {
  cwd: "/work/clones/patchsmith-abc",
  privateDirs: ["/work/clones"],
  hidden: { dirs: ["/root/.ssh", "/tmp/ignored-dir"], files: ["/etc/app.pem"] },
  hasGitDir: true,
};

function pairs(args: readonly string[], flag: string): string[][] {
  const found: string[][] = [];
  args.forEach((arg, index) => {
    if (arg === flag) found.push(args.slice(index + 1, index + 3));
  });
  return found;
}

describe("bwrapArgs", () => {
  const args = bwrapArgs(plan);

  it("isolates network, processes and privileges", () => {
    for (const flag of ["--unshare-net", "--unshare-pid", "--unshare-user", "--die-with-parent", "--new-session"]) {
      expect(args).toContain(flag);
    }
    expect(args.join(" ")).toContain("--uid 1000 --gid 1000 --cap-drop ALL");
    expect(args).not.toContain("--share-net");
  });

  it("mounts the root read-only, the clone read-write and its .git read-only, in that order", () => {
    const joined = args.join(" ");
    const root = joined.indexOf("--ro-bind / /");
    const clone = joined.indexOf(`--bind ${plan.cwd} ${plan.cwd}`);
    const git = joined.indexOf(`--ro-bind ${plan.cwd}/.git ${plan.cwd}/.git`);
    expect(root).toBeGreaterThanOrEqual(0);
    expect(clone).toBeGreaterThan(root);
    expect(git).toBeGreaterThan(clone);
    expect(args.slice(-2)).toEqual(["--chdir", plan.cwd]);
  });

  it("gives private temp folders and a home, and hides secrets outside them", () => {
    const tmpfs = args.filter((_, index) => args[index - 1] === "--tmpfs");
    expect(tmpfs).toEqual(["/tmp", "/work/clones", "/root/.ssh"]);
    expect(pairs(args, "--dir")).toContainEqual([SANDBOX_HOME, "--tmpfs"]);
    expect(pairs(args, "--ro-bind")).toContainEqual(["/dev/null", "/etc/app.pem"]);
  });

  it("skips the read-only .git when the folder has none", () => {
    expect(bwrapArgs({ ...plan, hasGitDir: false }).join(" ")).not.toContain(".git");
  });
});

describe("privateDirsFor", () => {
  it("hides the clone's siblings but never the root or an ancestor of HOME", () => {
    expect(privateDirsFor("/work/clones/x")).toContain("/work/clones");
    expect(privateDirsFor("/x")).not.toContain("/");
  });
});
