/**
 * The edit engine's view of a folder on disk: reads files as FileStates and commits a plan's writes atomically,
 * confined to the root (no `..`, no absolute paths, no symlink that leads outside, checked again at write time).
 */
import { statSync } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { normalizeRelativePath } from "../apply/paths.js";
import type { FileState } from "../apply/snapshot.js";
import { looksBinary } from "../core/text.js";
import { commitWrites, type CommitResult, type RemovedModes } from "./fs-tree-commit.js";
import { describeError, resolveInRoot } from "./fs-tree-resolve.js";

export type { CommitResult } from "./fs-tree-commit.js";

/** Files larger than this are not loaded: no model edits them whole, and they would crowd memory. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * What `read` reports: the file's state, plus `realPath` (root-relative, forward slashes) when the path reaches
 * its file through an in-root symlink, so a caller can notice two paths that are one file on disk.
 */
export type TreeFileState = FileState & { readonly realPath?: string };

export interface FsTree {
  /** The root as given. */
  readonly root: string;
  /** `relPath` is relative to the root; it is normalised and confined again here. */
  read(relPath: string): Promise<TreeFileState>;
  /**
   * Writes every file once (temp file in the same folder + rename, keeping the old file's mode unless `modes` sets
   * its executable bit), creates parent folders, deletes paths mapped to null. On any error, restores what was
   * already written.
   */
  commit(writes: ReadonlyMap<string, string | null>, modes?: ReadonlyMap<string, boolean>): Promise<CommitResult>;
  /** Relative paths of regular files, skipping `.git` and `node_modules`, up to `limit` entries. */
  listFiles(limit?: number): Promise<string[]>;
  /**
   * Whether `listFiles` would list this path (a regular file outside the skipped folders), asked synchronously: the
   * parser checks the few bare names a reply mentions instead of the whole tree being walked for every reply.
   */
  hasFile(relPath: string): boolean;
}

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/** The state of a path already confined to the root: `real` is where it resolved to, `shown` names it in messages. */
async function readResolved(shown: string, real: string, exists: boolean): Promise<FileState> {
  if (!exists) return { kind: "missing" };
  try {
    const info = await stat(real);
    if (info.isDirectory()) return { kind: "unreadable", message: `${shown} is a folder, not a file` };
    if (!info.isFile()) {
      return { kind: "unreadable", message: `${shown} is not a regular file (a device, socket or pipe)` };
    }
    if (info.size > MAX_FILE_BYTES) {
      return { kind: "unreadable", message: `${shown} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
    }
    const bytes = await readFile(real);
    if (looksBinary(bytes)) return { kind: "binary" };
    // Buffer decoding keeps a leading U+FEFF, which the text layer treats as the BOM flag.
    return { kind: "text", content: bytes.toString("utf8"), executable: (info.mode & 0o111) !== 0 };
  } catch (error) {
    return { kind: "unreadable", message: `${shown} cannot be read: ${describeError(error)}` };
  }
}

export function createFsTree(root: string): FsTree {
  let realRootPromise: Promise<string> | undefined;
  // Lazily, once: a missing root is the caller's misconfiguration and surfaces as a thrown error.
  const realRoot = (): Promise<string> => (realRootPromise ??= realpath(root));
  const removedModes: RemovedModes = new Map();

  async function read(relPath: string): Promise<TreeFileState> {
    const normal = normalizeRelativePath(relPath);
    if (!normal.ok) return { kind: "unsafe", message: normal.message };
    const base = await realRoot();
    const resolved = await resolveInRoot(base, normal.path);
    if (resolved.kind === "unsafe") return { kind: "unsafe", message: resolved.message };
    if (resolved.kind === "blocked") return { kind: "unreadable", message: resolved.message };
    const real = path.relative(base, resolved.real).split(path.sep).join("/");
    const state = await readResolved(normal.path, resolved.real, resolved.exists);
    return real === normal.path ? state : { ...state, realPath: real };
  }

  async function listFiles(limit = 20_000): Promise<string[]> {
    const base = await realRoot();
    const found: string[] = [];
    const queue: string[] = [""];
    while (queue.length > 0 && found.length < limit) {
      const dir = queue.shift()!;
      let entries;
      try {
        entries = await readdir(path.join(base, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) queue.push(rel);
        } else if (entry.isFile() && found.length < limit) {
          found.push(rel);
        }
      }
    }
    return found;
  }

  function hasFile(relPath: string): boolean {
    const normal = normalizeRelativePath(relPath);
    if (!normal.ok) return false;
    const segments = normal.path.split("/");
    if (segments.slice(0, -1).some((segment) => SKIPPED_DIRS.has(segment))) return false;
    try {
      return statSync(path.join(root, normal.path)).isFile();
    } catch {
      return false;
    }
  }

  return {
    root,
    read,
    listFiles,
    hasFile,
    commit: async (writes, modes) => commitWrites(await realRoot(), writes, modes, removedModes),
  };
}
