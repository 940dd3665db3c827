/**
 * Unified diffs (`udiff`), git style or plain, fenced or bare, one file section per call: the registry calls again
 * at the next file header. Each hunk becomes a ReplaceEdit with explicit ops; `/dev/null` sides create or delete;
 * git renames and copies become a RenameEdit or CopyEdit followed by the hunks on the new path; git's modes make a created file
 * executable or become a ModeEdit (before the hunks).
 */
import type { ParsedItem } from "../../core/edit.js";
import { isDiffInfo, parseFenceLine } from "../shared/fences.js";
import { editItem, joinContent, lastLine, problemItem, quoteLine } from "../shared/items.js";
import type { BlockParse, Dialect, OpenFence, ScanContext } from "../types.js";
import { datedAbsent, isDated } from "./header-dates.js";
import {
  DEV_NULL,
  emptyGitHeaders,
  EXECUTABLE_MODE,
  gitHeaderPaths,
  headerPath,
  isGitHeader,
  isHunkHeader,
  readGitHeaders,
  REGULAR_MODE,
  startsPlainFile,
  stripPrefixes,
  type GitHeaders,
} from "./headers.js";
import { asWrittenCode, endsHunk, scanHunk, type Hunk, type HunkScan } from "./hunk.js";
import { UNIFIED_DIFF_PROMPT } from "./prompt.js";

const FORMAT = "udiff";

interface FileSection {
  readonly start: number;
  readonly old: string | undefined;
  readonly new: string | undefined;
  readonly git: GitHeaders;
}

const headerlessAllowed = (fence: OpenFence | undefined): fence is OpenFence =>
  fence !== undefined && (fence.path !== undefined || isDiffInfo(fence.fence.info));

function startsAt(ctx: ScanContext, i: number, fence: OpenFence | undefined): boolean {
  const line = ctx.lines[i]!;
  if (isGitHeader(line) || startsPlainFile(ctx.lines, i)) return true;
  return isHunkHeader(line) && headerlessAllowed(fence);
}

/** Reads the headers of the file section at `i`; returns it with the index of its first hunk (or what follows). */
function readSection(ctx: ScanContext, i: number, fence: OpenFence | undefined): [FileSection, number] {
  const { lines } = ctx;
  const git = emptyGitHeaders();
  let j = i;
  let oldRaw: string | undefined;
  let newRaw: string | undefined;
  let oldAbsent = false;
  let newAbsent = false;
  let trees = false;
  if (isGitHeader(lines[j]!)) {
    [oldRaw, newRaw] = gitHeaderPaths(lines[j]!) ?? [undefined, undefined];
    j = readGitHeaders(lines, j + 1, git);
    if (git.newFile) oldRaw = DEV_NULL;
    if (git.deletedFile) newRaw = DEV_NULL;
  }
  if (startsPlainFile(lines, j)) {
    oldRaw = headerPath(lines[j]!.slice(4));
    newRaw = headerPath(lines[j + 1]!.slice(4));
    oldAbsent = datedAbsent(lines[j]!.slice(4));
    newAbsent = datedAbsent(lines[j + 1]!.slice(4));
    trees = isDated(lines[j]!.slice(4)) && isDated(lines[j + 1]!.slice(4));
    j += 2;
  } else if (oldRaw === undefined && fence?.path !== undefined) {
    return [{ start: i, old: fence.path, new: fence.path, git }, j];
  }
  const paths = stripPrefixes(oldRaw, newRaw, trees);
  const old = oldAbsent && !newAbsent ? DEV_NULL : paths.old;
  const added = newAbsent && !oldAbsent ? DEV_NULL : paths.new;
  return [{ start: i, old, new: added, git }, j];
}

const isFence = (line: string): boolean => parseFenceLine(line) !== undefined;

/** Whether a hunk stopped at a line it could not read (hunk.ts `endsHunk`). */
const isStray = (lines: readonly string[], scan: HunkScan): boolean =>
  scan.next < lines.length && !endsHunk(lines, scan.next);

/** Hunks and problems in reply order. */
type Entry = Hunk | ParsedItem;
const isHunk = (entry: Entry): entry is Hunk => "ops" in entry;

/** Reads the hunks from `j`; in a fence, a stray line inside a hunk turns that hunk into a problem. */
function readHunks(
  ctx: ScanContext,
  from: number,
  path: string | undefined,
  fence: OpenFence | undefined,
): { entries: Entry[]; next: number } {
  const { lines } = ctx;
  const entries: Entry[] = [];
  let j = from;
  for (;;) {
    let k = j;
    while (k < lines.length && lines[k] === "") k++;
    if (k >= lines.length || !isHunkHeader(lines[k]!)) break;
    let scan = scanHunk(lines, k, path);
    if (fence !== undefined && isStray(lines, scan) && !scan.fulfilled) {
      // Lines that lost their leading space (an unindented `}`) are context when, read so, the hunk holds
      // exactly what its header counts and ends where a hunk may end.
      const read = scanHunk(lines, k, path, true);
      if (read.exact && !isStray(lines, read) && read.next < lines.length) scan = asWrittenCode(read);
    }
    j = scan.next;
    if (j >= lines.length && fence !== undefined) {
      const message = `the diff in the fence opened at line ${fence.line + 1} is not closed: the reply ends at line ${lastLine(lines)} inside the hunk starting at line ${k + 1} (truncated?); that hunk was not applied, resend it`;
      entries.push(problemItem(FORMAT, k, path, message));
      break;
    }
    const stray = isStray(lines, scan);
    if (stray && fence !== undefined && !scan.fulfilled) {
      const message = `line ${j + 1}: ${quoteLine(lines[j]!)} is not a diff line: inside a hunk every line starts with ' ' (context), '-' (removed) or '+' (added); the hunk starting at line ${k + 1} was not applied`;
      entries.push(problemItem(FORMAT, j, path, message));
      while (j < lines.length && !isHunkHeader(lines[j]!) && !isGitHeader(lines[j]!) && !isFence(lines[j]!)) {
        if (startsPlainFile(lines, j)) break;
        j++;
      }
      continue;
    }
    if (scan.hunk.ops.length === 0) {
      // A header with nothing under it is a hunk that was lost on the way (cut, or its lines read as something
      // else); dropping it in silence would report the reply as applied.
      const message = `line ${k + 1}: the hunk header ${quoteLine(lines[k]!)} is followed by no diff lines; that hunk was not applied, resend it with its ' ', '-' and '+' lines`;
      entries.push(problemItem(FORMAT, k, path, message));
    } else entries.push(scan.hunk);
    if (stray) break;
  }
  return { entries, next: j };
}

const changes = (hunk: Hunk): boolean => hunk.ops.some((o) => o.op === "add" || o.op === "remove");

/** Whether a git mode is one of a regular file (patchsmith writes no symlinks or submodules). */
const isFileMode = (mode: string): boolean => mode === REGULAR_MODE || mode === EXECUTABLE_MODE;

function notAFileMode(section: FileSection, path: string, mode: string): ParsedItem {
  const message = `the diff makes ${path} mode ${mode}, which is not a regular file (a symbolic link is 120000, a submodule 160000); only files' contents and their executable bit (100644, 100755) can be changed`;
  return problemItem(FORMAT, section.start, path, message);
}

function createItem(section: FileSection, path: string, hunks: readonly Hunk[]): ParsedItem {
  const mode = section.git.newFileMode;
  if (mode !== undefined && !isFileMode(mode)) return notAFileMode(section, path, mode);
  const lines: string[] = [];
  for (const hunk of hunks) {
    for (const op of hunk.ops) {
      if (op.op === "remove" || (op.op !== "add" && op.text !== "")) {
        const message = `the new file ${path} (--- /dev/null) can only hold '+' lines; line ${hunk.header + 1} starts a hunk with context or removed lines`;
        return problemItem(FORMAT, hunk.header, path, message);
      }
      lines.push(op.text);
    }
  }
  const last = hunks[hunks.length - 1];
  const content = joinContent(lines, last?.newEndsWithoutNewline !== true);
  return editItem({
    kind: "create",
    path,
    content,
    ...(mode === EXECUTABLE_MODE ? { executable: true } : {}),
    origin: { format: FORMAT, line: section.start + 1 },
  });
}

function replaceItem(path: string, hunk: Hunk, section: number): ParsedItem {
  return editItem({
    kind: "replace",
    path,
    ops: hunk.ops,
    hint: {
      ...(hunk.oldStart === undefined ? {} : { line: hunk.oldStart }),
      ...(hunk.oldEndsWithoutNewline ? { atEndOfFile: true } : {}),
    },
    explicitOps: true,
    // A marker on either side means the hunk reaches the end of the file, so the other side's missing marker
    // states "ends with a newline" (git's meaning); without any marker the file keeps its state.
    ...(hunk.oldEndsWithoutNewline || hunk.newEndsWithoutNewline
      ? { oldEndsWithoutNewline: hunk.oldEndsWithoutNewline, newEndsWithoutNewline: hunk.newEndsWithoutNewline }
      : {}),
    origin: { format: FORMAT, line: hunk.header + 1, section },
  });
}

function parseAt(ctx: ScanContext, i: number, fence: OpenFence | undefined): BlockParse {
  const [section, first] = readSection(ctx, i, fence);
  const { git } = section;
  const copied = git.copyFrom !== undefined && git.copyTo !== undefined;
  const target =
    git.renameTo ?? (copied ? git.copyTo : undefined) ?? (section.new !== DEV_NULL ? section.new : section.old);
  if (git.binary && section.new === DEV_NULL && section.old !== undefined && section.old !== DEV_NULL) {
    // A deleted binary file needs none of its bytes.
    const edit = editItem({ kind: "delete", path: section.old, origin: { format: FORMAT, line: i + 1 } });
    return { items: [edit], next: Math.max(first, i + 1) };
  }
  if (git.binary) {
    const message = `the diff for ${target ?? "a file"} is a binary patch, which cannot be applied as text; edit text files only`;
    return { items: [problemItem(FORMAT, i, target, message)], next: Math.max(first, i + 1) };
  }
  if (target === undefined || target === DEV_NULL) {
    const message = `cannot read a file path from the diff header at line ${i + 1}; start each file with '--- a/path' and '+++ b/path'`;
    const read = readHunks(ctx, first, undefined, fence);
    return { items: [problemItem(FORMAT, i, undefined, message)], next: Math.max(read.next, i + 1) };
  }
  const read = readHunks(ctx, first, target, fence);
  const hunks = read.entries.filter(isHunk);
  const problems = read.entries.filter((e): e is ParsedItem => !isHunk(e));
  const origin = { format: FORMAT, line: i + 1 } as const;
  if (section.old === DEV_NULL) {
    return { items: [createItem(section, target, hunks), ...problems], next: Math.max(read.next, i + 1) };
  }
  if (section.new === DEV_NULL) {
    return {
      items: [editItem({ kind: "delete", path: section.old ?? target, origin }), ...problems],
      next: Math.max(read.next, i + 1),
    };
  }
  const items: ParsedItem[] = [];
  const renamed = git.renameFrom !== undefined && git.renameTo !== undefined;
  if (renamed) items.push(editItem({ kind: "rename", path: git.renameFrom!, to: git.renameTo!, origin }));
  else if (copied) items.push(editItem({ kind: "copy", path: git.copyFrom!, to: git.copyTo!, origin }));
  const mode = git.newMode !== undefined && git.newMode !== git.oldMode ? git.newMode : undefined;
  if (mode !== undefined) {
    items.push(
      isFileMode(mode)
        ? editItem({ kind: "mode", path: target, executable: mode === EXECUTABLE_MODE, origin })
        : notAFileMode(section, target, mode),
    );
  }
  if (!renamed && !copied && mode === undefined && read.entries.length === 0) {
    const message = `the diff for ${target} has a header but no hunk: add '@@ ... @@' followed by ' ', '-' and '+' lines`;
    items.push(problemItem(FORMAT, i, target, message));
  }
  for (const entry of read.entries) {
    if (!isHunk(entry)) items.push(entry);
    else if (changes(entry)) items.push(replaceItem(target, entry, section.start + 1));
  }
  return { items, next: Math.max(read.next, i + 1) };
}

export const unifiedDiff: Dialect = { name: FORMAT, prompt: UNIFIED_DIFF_PROMPT, startsAt, parseAt };
