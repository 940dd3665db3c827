/**
 * The three file sections of an apply_patch block. Each reads from its header to the next control line and
 * returns its items; an invalid line turns the whole section into one problem (strict mode) or ends the patch
 * (a bare patch without `*** Begin Patch`, where the line is most likely prose).
 */
import type { EditHint, LineOp, ParsedItem } from "../../core/edit.js";
import { isElision } from "../shared/elision.js";
import { parseFenceLine } from "../shared/fences.js";
import { editItem, joinContent, problemItem, quoteLine } from "../shared/items.js";
import { cleanPath } from "../shared/paths.js";
import type { ScanContext } from "../types.js";
import { END_OF_FILE, isControl, moveTargetOf, VALID_PREFIXES } from "./grammar.js";

const FORMAT = "patch";

export interface SectionContext {
  readonly ctx: ScanContext;
  /** Problems for invalid lines (true) or end the patch there (false). */
  readonly strict: boolean;
  /** Heredoc delimiter that ends the patch, if any. */
  readonly delimiter: string | undefined;
  /**
   * The patch has its `*** End Patch` further on: a fence line before it is the content of a Markdown file (a
   * context line whose leading space the model dropped), not the fence that closes the reply's block.
   */
  readonly fencesAreContent: boolean;
}

export interface SectionParse {
  readonly items: ParsedItem[];
  readonly next: number;
  /** True when the section ended at a line that also ends the patch (prose after a bare patch). */
  readonly stop: boolean;
}

/**
 * A closing fence ends the patch; it must start the line, since " ```" is a context line of a Markdown file.
 */
export const isFenceEnd = (line: string): boolean =>
  (line.startsWith("`") || line.startsWith("~")) && parseFenceLine(line) !== undefined;

/** A line that ends a section without being part of it. */
function endsSection(sc: SectionContext, line: string): boolean {
  return (
    isControl(line) ||
    (!sc.fencesAreContent && isFenceEnd(line)) ||
    (sc.delimiter !== undefined && line.trim() === sc.delimiter)
  );
}

/** Skips past a broken section to the next control line. */
function skipSection(sc: SectionContext, from: number): number {
  let j = from;
  while (j < sc.ctx.lines.length && !endsSection(sc, sc.ctx.lines[j]!)) j++;
  return j;
}

function invalidLine(sc: SectionContext, at: number, path: string, what: string): SectionParse {
  const line = sc.ctx.lines[at]!;
  const message = `line ${at + 1}: ${quoteLine(line)} is not valid in ${what}; every line there starts with ${VALID_PREFIXES}; the changes to ${path} were not applied`;
  return { items: [problemItem(FORMAT, at, path, message)], next: skipSection(sc, at + 1), stop: false };
}

function missingPath(sc: SectionContext, at: number, header: string): SectionParse {
  const message = `line ${at + 1}: '${header}' needs a path after the colon`;
  return { items: [problemItem(FORMAT, at, undefined, message)], next: skipSection(sc, at + 1), stop: false };
}

export function parseAdd(sc: SectionContext, at: number, rawPath: string): SectionParse {
  const path = cleanPath(rawPath);
  if (path === "") return missingPath(sc, at, "*** Add File:");
  const { lines } = sc.ctx;
  const content: string[] = [];
  let blanks = 0;
  let j = at + 1;
  let stop = false;
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    if (line.startsWith("+")) {
      // Empty lines between added lines are blank lines whose '+' the model dropped.
      for (; blanks > 0; blanks--) content.push("");
      content.push(line.slice(1));
    } else if (line.trim() === "") blanks++;
    else if (endsSection(sc, line)) break;
    else if (sc.strict) return invalidLine(sc, j, path, `the added file ${path} (lines start with '+')`);
    else {
      stop = true;
      break;
    }
  }
  const item = editItem({
    kind: "create",
    path,
    content: joinContent(content),
    origin: { format: FORMAT, line: at + 1 },
  });
  return { items: [item], next: j, stop };
}

export function parseDelete(sc: SectionContext, at: number, rawPath: string): SectionParse {
  const path = cleanPath(rawPath);
  if (path === "") return missingPath(sc, at, "*** Delete File:");
  const { lines } = sc.ctx;
  let j = at + 1;
  // Some models list the deleted content as '-' lines; it carries no information.
  while (j < lines.length && (lines[j]!.startsWith("-") || lines[j]!.trim() === "") && !endsSection(sc, lines[j]!)) j++;
  return {
    items: [editItem({ kind: "delete", path, origin: { format: FORMAT, line: at + 1 } })],
    next: j,
    stop: false,
  };
}

interface Chunk {
  readonly anchors: string[];
  line: number | undefined;
  hintLine: number | undefined;
  readonly ops: LineOp[];
  /** How many trailing ops came from empty reply lines (dropped when the chunk closes). */
  blankTail: number;
  headed: boolean;
  atEndOfFile: boolean;
}

const newChunk = (): Chunk => ({
  anchors: [],
  line: undefined,
  hintLine: undefined,
  ops: [],
  blankTail: 0,
  headed: false,
  atEndOfFile: false,
});

/**
 * A chunk header starts with `@@`. A line starting with a space is a context line, even when its text starts with
 * `@@` (a file holding diff text: git's test scripts, patches in Markdown), as in Codex's own parser; other leading
 * whitespace before `@@` is read as an indented header.
 */
const isChunkHeader = (line: string): boolean => !line.startsWith(" ") && line.trimStart().startsWith("@@");

// Models sometimes write a udiff header inside apply_patch: "@@ -12,3 +12,4 @@ def f():".
const UDIFF_NUMBERS = /^-(\d+)(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@\s*(.*)$/;

function readAnchor(chunk: Chunk, line: string): void {
  let rest = line.trim().replace(/^@@+/, "").trim();
  const m = UDIFF_NUMBERS.exec(rest);
  if (m) {
    const n = Number(m[1]);
    if (n >= 1) chunk.hintLine = n;
    rest = m[2]!;
  } else rest = rest.replace(/\s*@@+$/, "");
  if (rest !== "") chunk.anchors.push(rest);
  chunk.headed = true;
}

/** Turns a finished chunk into an item; undefined when it changes nothing. */
function closeChunk(chunk: Chunk, path: string, section: number): ParsedItem | undefined {
  const ops = chunk.ops.slice(0, chunk.ops.length - chunk.blankTail);
  const at = chunk.line ?? 0;
  if (ops.length === 0) {
    if (!chunk.headed) return undefined;
    return problemItem(FORMAT, at, path, `the chunk at line ${at + 1} of the update to ${path} has no lines`);
  }
  if (!ops.some((o) => o.op === "add" || o.op === "remove")) return undefined;
  const hint: EditHint = {
    ...(chunk.hintLine === undefined ? {} : { line: chunk.hintLine }),
    ...(chunk.anchors.length === 0 ? {} : { anchors: chunk.anchors }),
    ...(chunk.atEndOfFile ? { atEndOfFile: true } : {}),
  };
  return editItem({
    kind: "replace",
    path,
    ops,
    hint,
    explicitOps: true,
    origin: { format: FORMAT, line: at + 1, section },
  });
}

/**
 * `*** Update File: p` [`*** Move to: q`] chunks. The ReplaceEdits on p come first, then the RenameEdit p → q, so
 * the planner edits the old path and moves the result.
 */
export function parseUpdate(sc: SectionContext, at: number, rawPath: string): SectionParse {
  const path = cleanPath(rawPath);
  if (path === "") return missingPath(sc, at, "*** Update File:");
  const { lines } = sc.ctx;
  const items: ParsedItem[] = [];
  let j = at + 1;
  let moveTo: { to: string; line: number } | undefined;
  const target = j < lines.length ? moveTargetOf(lines[j]!) : undefined;
  if (target !== undefined) {
    moveTo = { to: cleanPath(target), line: j };
    j++;
  }
  let chunk = newChunk();
  const close = (): void => {
    const item = closeChunk(chunk, path, at + 1);
    if (item !== undefined) items.push(item);
    chunk = newChunk();
  };
  let stop = false;
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    const trimmed = line.trim();
    if (trimmed === END_OF_FILE) {
      chunk.line ??= j;
      chunk.atEndOfFile = true;
      close();
      continue;
    }
    if (endsSection(sc, line)) break;
    if (isChunkHeader(line)) {
      if (chunk.ops.length > 0) close();
      chunk.line ??= j;
      readAnchor(chunk, line);
      continue;
    }
    const c = line[0];
    if (line === "" || c === " " || c === "-" || c === "+") {
      chunk.line ??= j;
      const text = line.slice(1);
      if (line === "") chunk.ops.push({ op: "context", text: "" });
      else if (c === " ") chunk.ops.push(isElision(text, path) ? { op: "elision", text } : { op: "context", text });
      else chunk.ops.push({ op: c === "-" ? "remove" : "add", text });
      chunk.blankTail = line === "" ? chunk.blankTail + 1 : 0;
      continue;
    }
    if (sc.strict) return invalidLine(sc, j, path, `the update of ${path}`);
    stop = true;
    break;
  }
  close();
  if (moveTo !== undefined) {
    const to = moveTo.to;
    if (to === "") return missingPath(sc, moveTo.line, "*** Move to:");
    items.push(editItem({ kind: "rename", path, to, origin: { format: FORMAT, line: moveTo.line + 1 } }));
  } else if (items.length === 0) {
    const message = `the update of ${path} at line ${at + 1} has no changes: add '@@' chunks with '-' and '+' lines`;
    items.push(problemItem(FORMAT, at, path, message));
  }
  return { items, next: j, stop };
}
