/**
 * A run's own folder on the host, mounted read-only inside the sandbox: the minimal passwd and group, a git config
 * (the clone's `.git` belongs to another user inside; tests that make commits get an identity), the shims put on
 * PATH, and, for set-up, the egress forwarder and the proxy's socket. Removed when the run ends.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SandboxUser } from "./bwrap-plan.js";
import { FORWARDER_SOURCE } from "./egress-proxy.js";
import { identityFiles } from "./sandbox-user.js";

export interface RunDir {
  readonly dir: string;
  /** The shims' folder, relative to the run folder. */
  readonly binName: string;
  /** The forwarder script and the proxy socket, relative to the run folder. */
  readonly forwarderName: string;
  readonly socketName: string;
  remove(): Promise<void>;
}

const GITCONFIG = [
  "[safe]",
  "\tdirectory = *",
  "[user]",
  "\tname = patchsmith sandbox",
  "\temail = sandbox@localhost",
  "",
].join("\n");

/** A shim: the command line, then the arguments the shim was called with. Pure. */
export function shimScript(commandLine: string): string {
  return `#!/bin/sh\nexec ${commandLine} "$@"\n`;
}

export const isShimName = (name: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name);

export async function makeRunDir(
  parent: string,
  user: SandboxUser,
  shims: Readonly<Record<string, string>>,
  network: boolean,
): Promise<RunDir> {
  const dir = await mkdtemp(join(parent, "patchsmith-run-"));
  // Traversable but not listable: the sandbox user (another uid under a root service) reads files it knows by name.
  await chmod(dir, 0o711);
  const { passwd, group } = identityFiles(user);
  await writeFile(join(dir, "passwd"), passwd, { mode: 0o644 });
  await writeFile(join(dir, "group"), group, { mode: 0o644 });
  await writeFile(join(dir, "gitconfig"), GITCONFIG, { mode: 0o644 });
  const bin = join(dir, "bin");
  await mkdir(bin, { mode: 0o755 });
  await chmod(bin, 0o755);
  for (const [name, commandLine] of Object.entries(shims)) {
    if (!isShimName(name)) throw new Error(`not a usable shim name: ${JSON.stringify(name)}`);
    await writeFile(join(bin, name), shimScript(commandLine), { mode: 0o755 });
  }
  if (network) await writeFile(join(dir, "forward.cjs"), FORWARDER_SOURCE, { mode: 0o644 });
  return {
    dir,
    binName: "bin",
    forwarderName: "forward.cjs",
    socketName: "proxy.sock",
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
