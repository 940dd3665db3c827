/**
 * One hunk of a unified diff, read loosely: numbers and counts may be wrong or missing (`@@ @@`, `@@ ... @@`),
 * blank context lines may have lost their leading space. Counts are consulted to decide whether trailing empty
 * lines still belong to the hunk, and, when asked (`unprefixed`), whether lines that lost their leading space
 * (`}` for ` }`) are context: only as far as the counts ask for them.
 */
import type { LineOp } from "../../core/edit.js";
import { isElision } from "../shared/elision.js";
import { parseFenceLine } from "../shared/fences.js";
import { isFileHeaderInHunk, isGitHeader, isHunkHeader } from "./headers.js";

export interface Hunk {
  /** Index of the `@@` line. */
  readonly header: number;
  /** Old start line, when the header has numbers. */
  readonly oldStart: number | undefined;
  readonly ops: LineOp[];
  oldEndsWithoutNewline: boolean;
  newEndsWithoutNewline: boolean;
}

export interface HunkScan {
  readonly hunk: Hunk;
  /** First line after the hunk. */
  readonly next: number;
  /** True when the header had counts and the lines read fulfil them. */
  readonly counted: boolean;
  readonly fulfilled: boolean;
  /** True when the header had counts and the lines read are exactly as many. */
  readonly exact: boolean;
  /** Read with `unprefixed`: each context op read from a line starting with a space, and that line. */
  readonly spaced?: ReadonlyMap<number, string>;
}

const NUMBERED = /^@@+\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*@@/;
const OLD_START = /^@@+\s*-(\d+)/;

/** A line that continues a hunk (an empty line is decided by the caller). */
const isBodyLine = (lines: readonly string[], k: number): boolean => {
  const line = lines[k]!;
  const c = line[0];
  if (c === " " || c === "+" || c === "\\") return true;
  return c === "-" && !isFileHeaderInHunk(lines, k);
};

function readHeader(line: string): { start: number | undefined; oldCount: number; newCount: number; counted: boolean } {
  const m = NUMBERED.exec(line);
  if (m) {
    return {
      start: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
      counted: true,
    };
  }
  const s = OLD_START.exec(line);
  return { start: s ? Number(s[1]) : undefined, oldCount: 0, newCount: 0, counted: false };
}

/**
 * The signature separator of a mailed patch (`git format-patch` ends with `-- ` and git's version): after a hunk
 * whose counts are met, and before a line no hunk holds, it is not the removal of a line `- `.
 */
const endsMail = (lines: readonly string[], k: number): boolean => {
  if (lines[k] !== "-- ") return false;
  const next = lines[k + 1];
  return next === undefined || next === "" || !isBodyLine(lines, k + 1);
};

/** A line another dialect gives meaning to (SEARCH/REPLACE markers, an apply_patch line): never taken as context. */
const OTHER_DIALECT = /^(?:<{5,}|={5,}|>{5,}|\*\*\* )/;

export function scanHunk(lines: readonly string[], at: number, path: string | undefined, unprefixed = false): HunkScan {
  const header = readHeader(lines[at]!);
  const start = header.start !== undefined && header.start >= 1 ? header.start : undefined;
  const hunk: Hunk = {
    header: at,
    oldStart: start,
    ops: [],
    oldEndsWithoutNewline: false,
    newEndsWithoutNewline: false,
  };
  const remaining: Remaining = { old: header.oldCount, new: header.newCount };
  const spaced = new Map<number, string>();
  let j = at + 1;
  while (j < lines.length) {
    const line = lines[j]!;
    if (line === "") {
      let k = j;
      while (k < lines.length && lines[k] === "") k++;
      // Empty lines followed by more hunk lines are blank context whose space the model dropped; trailing ones
      // belong to the hunk only as far as its counts ask for them. Once the counts are met, a blank line ends the
      // hunk: what follows is prose that may start with a space or a dash (an unfenced diff's closing note).
      const met = header.counted && remaining.old <= 0 && remaining.new <= 0;
      const take = met
        ? 0
        : k < lines.length && isBodyLine(lines, k)
          ? k - j
          : header.counted
            ? Math.max(0, Math.min(k - j, remaining.old, remaining.new))
            : 0;
      for (let t = 0; t < take; t++) pushOp(hunk, remaining, { op: "context", text: "" });
      if (take < k - j) {
        j += take;
        break;
      }
      j = k;
      continue;
    }
    if (endsMail(lines, j) && header.counted && remaining.old === 0 && remaining.new === 0) break;
    if (!isBodyLine(lines, j)) {
      const wanted = header.counted && (remaining.old > 0 || remaining.new > 0);
      const other = endsHunk(lines, j) || OTHER_DIALECT.test(line);
      if (!unprefixed || !wanted || other) break;
      pushOp(hunk, remaining, { op: "context", text: line });
      j++;
      continue;
    }
    const text = line.slice(1);
    const c = line[0];
    if (c === " " && unprefixed && !isElision(text, path)) spaced.set(hunk.ops.length, line);
    if (c === " ") pushOp(hunk, remaining, isElision(text, path) ? { op: "elision", text } : { op: "context", text });
    else if (c === "-") pushOp(hunk, remaining, { op: "remove", text });
    else if (c === "+") pushOp(hunk, remaining, { op: "add", text });
    else markNoNewline(hunk);
    j++;
  }
  return {
    hunk,
    next: j,
    counted: header.counted,
    fulfilled: header.counted && remaining.old <= 0 && remaining.new <= 0,
    exact: header.counted && remaining.old === 0 && remaining.new === 0,
    ...(unprefixed ? { spaced } : {}),
  };
}

/** Indentation of whole indent units of two spaces (or tabs), as code indented by 2 or 4 is. */
const EVEN_INDENT = /^(?: {2})*(?:\t|\S|$)/;

/**
 * A hunk read with `unprefixed` whose context lines look written as the code itself, the diff's space dropped
 * from every one (`  return x;` for `   return x;`): then the lines that start with a space are context as they
 * stand. Told by the indentation: with the diff's space, code indented by two or four has an odd number of
 * spaces in front; as written, every such line has an even number, and so do the removed and added lines. Any
 * other hunk is returned as it is. A wrong guess only makes the hunk not match; it never places it.
 */
export function asWrittenCode(scan: HunkScan): HunkScan {
  const spaced = [...(scan.spaced ?? new Map<number, string>())].filter(([, line]) => line.trim() !== "");
  if (spaced.length === 0 || !spaced.every(([, line]) => /^(?: {2})+\S/.test(line))) return scan;
  const changed = scan.hunk.ops.filter((op) => op.op === "add" || op.op === "remove");
  if (!changed.every((op) => EVEN_INDENT.test(op.text))) return scan;
  const ops = scan.hunk.ops.slice();
  for (const [at, line] of spaced) ops[at] = { op: "context", text: line };
  return { ...scan, hunk: { ...scan.hunk, ops } };
}

/** Lines the header's counts still expect on each side (negative once exceeded; unused without counts). */
interface Remaining {
  old: number;
  new: number;
}

/** Appends `op` to the hunk and counts it against the side(s) it belongs to. */
function pushOp(hunk: Hunk, remaining: Remaining, op: LineOp): void {
  hunk.ops.push(op);
  if (op.op !== "add") remaining.old--;
  if (op.op !== "remove") remaining.new--;
}

/** `\ No newline at end of file` speaks about the line before it. */
function markNoNewline(hunk: Hunk): void {
  const last = hunk.ops[hunk.ops.length - 1];
  if (last === undefined) return;
  if (last.op !== "add") hunk.oldEndsWithoutNewline = true;
  if (last.op !== "remove") hunk.newEndsWithoutNewline = true;
}

/** Where a hunk stopped: a line that legitimately follows a hunk, as opposed to a stray line inside one. */
const isHunkBoundary = (lines: readonly string[], k: number): boolean => {
  const line = lines[k];
  if (line === undefined || line === "") return true;
  return isHunkHeader(line) || isGitHeader(line) || isFileHeaderInHunk(lines, k);
};

/** A line a hunk may stop at: a boundary of hunks, or a fence. Any other line a hunk stops at is stray. */
export const endsHunk = (lines: readonly string[], k: number): boolean =>
  isHunkBoundary(lines, k) || parseFenceLine(lines[k] ?? "") !== undefined;
