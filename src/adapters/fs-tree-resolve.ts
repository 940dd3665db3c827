/**
 * Confinement on the real filesystem: walks a normalised relative path one segment at a time from the real root,
 * resolving every symlink on the way and refusing any that leads outside. Called at read time and again right
 * before each write, because a folder could have been swapped for a symlink in between.
 */
import { errorCode } from "./errno.js";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

export type Resolved =
  | {
      readonly kind: "ok";
      /** Real absolute path of the file (an in-root symlink at the end is followed), or where it would be created. */
      readonly real: string;
      /** Real parent folder + the last segment: the directory entry itself (what a delete removes). */
      readonly entry: string;
      readonly exists: boolean;
    }
  | { readonly kind: "unsafe"; readonly message: string }
  /** The path cannot name a file: a parent is a file, or a folder on the way cannot be listed. */
  | { readonly kind: "blocked"; readonly message: string };

export function isInsideDir(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export const describeError = (error: unknown): string => {
  const code = errorCode(error);
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder";
  if (code === "ENOTDIR") return "a parent folder on the path is a file";
  if (code === "ENOSPC") return "the disk is full";
  if (code === "EROFS") return "the file system is read-only";
  return error instanceof Error ? error.message : String(error);
};

/**
 * True when `target` (a real path) is the root's `.git` or inside any `.git` folder under the root. The path text
 * is checked for `.git` segments before resolution; this catches an in-root symlink (`g -> .git`) that leads
 * there. Case-insensitive because macOS and Windows file systems are.
 */
function leadsIntoGit(realRoot: string, target: string): boolean {
  return path
    .relative(realRoot, target)
    .split(path.sep)
    .some((segment) => segment.toLowerCase() === ".git");
}

/** `relPath` must already be normalised (no `..`, no leading `/`); `realRoot` must be a realpath. */
export async function resolveInRoot(realRoot: string, relPath: string): Promise<Resolved> {
  const segments = relPath.split("/");
  let current = realRoot;
  let parent = realRoot;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const shown = segments.slice(0, i + 1).join("/");
    const next = path.join(current, segment);
    parent = current;
    let info;
    try {
      info = await lstat(next);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT") {
        const rest = segments.slice(i + 1);
        const real = path.join(next, ...rest);
        return { kind: "ok", real, entry: real, exists: false };
      }
      if (code === "ENOTDIR")
        return { kind: "blocked", message: `${segments.slice(0, i).join("/")} is a file, not a folder` };
      return { kind: "blocked", message: `${shown} cannot be inspected: ${describeError(error)}` };
    }
    if (info.isSymbolicLink()) {
      let target: string;
      try {
        target = await realpath(next);
      } catch {
        // A dangling or looping link: its target cannot be checked, so it is not trusted.
        return { kind: "unsafe", message: `${shown} is a symlink whose target does not exist or loops` };
      }
      if (!isInsideDir(realRoot, target))
        return { kind: "unsafe", message: `${shown} is a symlink that leads outside the root` };
      if (leadsIntoGit(realRoot, target))
        return {
          kind: "unsafe",
          message: `${shown} is a symlink into git's own .git folder, which edits may not touch`,
        };
      current = target;
    } else {
      if (i < segments.length - 1 && !info.isDirectory()) {
        return { kind: "blocked", message: `${shown} is a file, not a folder` };
      }
      current = next;
    }
  }
  return { kind: "ok", real: current, entry: path.join(parent, segments[segments.length - 1]!), exists: true };
}
