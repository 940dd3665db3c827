/**
 * The clone's submodules, checked out after the clone (tests often need them: shared fixtures, vendored
 * libraries, configuration). Only over the network: a `.gitmodules` that names a local path (`/home/...`,
 * `file://`) would copy the host's repositories into the clone, where the repository's own code reads them. A
 * submodule that cannot be fetched is reported, not fatal: the tests may not need it.
 */
import type { SubmoduleOutcome } from "../ports/git-sandbox.js";
import { GitCommandError, type GitRunner } from "./git-exec.js";
import { parseNulList } from "./git-output.js";

/** Transports a submodule URL may use: never the local file system, never `ext::` commands. */
const PROTOCOLS = ["-c", "protocol.file.allow=never", "-c", "protocol.ext.allow=never"];

/** Paths of the gitlinks at HEAD (mode 160000), from `git ls-files -s -z`. */
export function gitlinkPaths(stage: string): string[] {
  return parseNulList(stage)
    .filter((entry) => entry.startsWith("160000 "))
    .map((entry) => entry.slice(entry.indexOf("\t") + 1));
}

/** `git submodule status`: a line starting with "-" is a submodule not checked out. */
export function uncheckedSubmodules(status: string): string[] {
  return status
    .split("\n")
    .filter((line) => line.startsWith("-"))
    .map((line) => line.slice(1).split(" ")[1] ?? "")
    .filter((path) => path !== "");
}

export async function checkOutSubmodules(git: GitRunner): Promise<SubmoduleOutcome[]> {
  const paths = gitlinkPaths(await git.run(["ls-files", "-s", "-z"]));
  if (paths.length === 0) return [];
  const update = ["submodule", "update", "--init", "--recursive", "--jobs", "4"];
  let message: string | undefined;
  try {
    // Shallow first: the history of a vendored library is not what the tests need.
    await git.run([...PROTOCOLS, ...update, "--depth", "1"]);
  } catch {
    try {
      // A server that cannot serve the recorded commit shallowly (not at a branch tip) still can in full.
      await git.run([...PROTOCOLS, ...update]);
    } catch (error) {
      message = error instanceof GitCommandError ? error.message : String(error);
    }
  }
  const missing = new Set(
    message === undefined ? [] : uncheckedSubmodules(await git.run(["submodule", "status"]).catch(() => "")),
  );
  return paths.map((path) =>
    missing.has(path) || (message !== undefined && missing.size === 0)
      ? { path, ok: false, message: message ?? "not checked out" }
      : { path, ok: true },
  );
}
