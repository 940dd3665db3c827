/**
 * All-or-nothing commit of a plan's writes: each file is written once through a temp file in its own folder and
 * renamed into place; what was there before is kept in memory and put back if any later step fails.
 */
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, open, readFile, readlink, rename, rm, rmdir, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import { normalizeRelativePath } from "../apply/paths.js";
import { errorCode } from "./errno.js";
import { describeError, resolveInRoot } from "./fs-tree-resolve.js";

export type CommitResult =
  | { readonly ok: true; readonly written: readonly string[] }
  | {
      readonly ok: false;
      /** The path whose write failed. */
      readonly path: string;
      readonly message: string;
      /** False when restoring an earlier file failed too: the message then lists what may be left changed. */
      readonly rolledBack: boolean;
    };

type Previous =
  | { readonly type: "none" }
  | { readonly type: "file"; readonly bytes: Buffer; readonly mode: number }
  | { readonly type: "link"; readonly target: string };

interface Undo {
  readonly rel: string;
  readonly abs: string;
  readonly previous: Previous;
}

class CommitError extends Error {
  constructor(
    readonly relPath: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Writes through a temp file renamed into place: with `mode`, exactly that mode; without, a new file's
 * `createMode` as the umask leaves it.
 */
async function writeAtomically(
  target: string,
  content: string | Buffer,
  mode: number | undefined,
  createMode = 0o666,
): Promise<void> {
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.patchsmith-${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    // "wx": never follow or reuse an existing entry under the temp name.
    const handle = await open(temp, "wx", mode ?? createMode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; an existing file's exact mode (e.g. 0755 scripts) is restored explicitly.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function readPrevious(abs: string): Promise<Previous> {
  let info;
  try {
    info = await lstat(abs);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { type: "none" };
    throw error;
  }
  if (info.isSymbolicLink()) return { type: "link", target: await readlink(abs) };
  if (info.isDirectory()) throw new Error("it is a folder");
  return { type: "file", bytes: await readFile(abs), mode: info.mode & 0o7777 };
}

/** mkdir -p that records the folders it made, so a rollback can remove them again. */
async function makeParents(dir: string, made: string[]): Promise<void> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      await lstat(current);
      break;
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
      missing.push(current);
      const up = path.dirname(current);
      if (up === current) break;
      current = up;
    }
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder);
    made.push(folder);
  }
}

/** A file's mode with its execute bits set (where it may be read) or cleared. */
const withExecutable = (mode: number, executable: boolean): number =>
  executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;

/**
 * The modes of files a commit deleted, by path, kept by the tree between commits: a file written again at that
 * path (an attempt undone, a file put back after the tests) gets its mode back unless the write sets one.
 */
export type RemovedModes = Map<string, number>;

/**
 * Returns false when there was nothing to do (a deletion of a path that is already gone). `executable`, when
 * given, sets or clears the file's execute bits; a new file is made as `chmod +x` would leave it under the umask.
 */
async function applyOne(
  realRoot: string,
  rel: string,
  content: string | null,
  undo: Undo[],
  made: string[],
  executable: boolean | undefined,
  removed: RemovedModes,
): Promise<boolean> {
  const normal = normalizeRelativePath(rel);
  if (!normal.ok) throw new CommitError(rel, normal.message);
  // Checked again at write time: the tree may have changed since it was read.
  const resolved = await resolveInRoot(realRoot, normal.path);
  if (resolved.kind !== "ok") throw new CommitError(rel, resolved.message);
  if (content === null) {
    const previous = await readPrevious(resolved.entry);
    if (previous.type === "none") return false;
    await unlink(resolved.entry);
    undo.push({ rel, abs: resolved.entry, previous });
    if (previous.type === "file") removed.set(normal.path, previous.mode);
    return true;
  }
  // An in-root symlink at the end is written through (its real target), so the link itself survives.
  const previous = await readPrevious(resolved.real);
  await makeParents(path.dirname(resolved.real), made);
  const kept =
    previous.type === "file" ? previous.mode : executable === undefined ? removed.get(normal.path) : undefined;
  const mode = kept === undefined || executable === undefined ? kept : withExecutable(kept, executable);
  await writeAtomically(resolved.real, content, mode, executable === true ? 0o777 : 0o666);
  undo.push({ rel, abs: resolved.real, previous });
  return true;
}

async function restore(entry: Undo): Promise<void> {
  const { abs, previous } = entry;
  if (previous.type === "none") await rm(abs, { force: true });
  else if (previous.type === "file") await writeAtomically(abs, previous.bytes, previous.mode);
  else {
    await rm(abs, { force: true });
    await symlink(previous.target, abs);
  }
}

/**
 * Two write paths that land on one file on disk (`b.txt -> a.txt`, or `lib/x.ts` through `lib -> src`) would
 * write it twice, the later one from stale content: such a commit is refused before anything is touched.
 * A deletion removes the directory entry itself, so it is keyed by the entry; a write goes through to the target.
 */
async function findAlias(
  realRoot: string,
  writes: ReadonlyMap<string, string | null>,
): Promise<CommitResult | undefined> {
  const seen = new Map<string, string>();
  for (const [rel, content] of writes) {
    const normal = normalizeRelativePath(rel);
    if (!normal.ok) continue;
    const resolved = await resolveInRoot(realRoot, normal.path);
    // Unresolvable paths fail in applyOne with their own message (and a rollback of nothing).
    if (resolved.kind !== "ok") continue;
    const key = content === null ? resolved.entry : resolved.real;
    const first = seen.get(key);
    if (first !== undefined) {
      const message = `${rel} and ${first} are the same file on disk (through a symlink); nothing was changed`;
      return { ok: false, path: rel, message, rolledBack: true };
    }
    seen.set(key, rel);
  }
  return undefined;
}

export async function commitWrites(
  realRoot: string,
  writes: ReadonlyMap<string, string | null>,
  modes: ReadonlyMap<string, boolean> = new Map(),
  removed: RemovedModes = new Map(),
): Promise<CommitResult> {
  const alias = await findAlias(realRoot, writes);
  if (alias) return alias;
  const undo: Undo[] = [];
  const made: string[] = [];
  const written: string[] = [];
  for (const [rel, content] of writes) {
    try {
      if (await applyOne(realRoot, rel, content, undo, made, modes.get(rel), removed)) written.push(rel);
    } catch (error) {
      const message =
        error instanceof CommitError ? error.message : `${rel} could not be written: ${describeError(error)}`;
      const stuck: string[] = [];
      for (const entry of undo.reverse()) {
        try {
          await restore(entry);
        } catch {
          stuck.push(entry.rel);
        }
      }
      for (const folder of made.reverse()) await rmdir(folder).catch(() => undefined);
      return {
        ok: false,
        path: rel,
        message:
          stuck.length === 0
            ? `${message}; nothing was changed`
            : `${message}; restoring failed for ${stuck.join(", ")}, which may be left changed`,
        rolledBack: stuck.length === 0,
      };
    }
  }
  return { ok: true, written };
}
