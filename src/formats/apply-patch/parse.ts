/**
 * OpenAI's apply_patch dialect (`patch`): `*** Begin Patch`, file sections (`*** Add File:`, `*** Delete File:`,
 * `*** Update File:` + optional `*** Move to:` + chunks), `*** End Patch`. Tolerates padded markers, a missing
 * Begin when a section header is present, and an `apply_patch <<'EOF'` heredoc around the patch.
 *
 * A patch that began but never ends is treated as truncated: its last section may be cut, so it is dropped and a
 * problem says so; the sections before it are complete and kept.
 */
import type { ParsedItem } from "../../core/edit.js";
import { lastLine, problemItem, quoteLine } from "../shared/items.js";
import type { BlockParse, Dialect, OpenFence, ScanContext } from "../types.js";
import { actionOf, BEGIN, END, heredocAt, VALID_HEADERS } from "./grammar.js";
import { APPLY_PATCH_PROMPT } from "./prompt.js";
import { isFenceEnd, parseAdd, parseDelete, parseUpdate, type SectionContext, type SectionParse } from "./sections.js";

const FORMAT = "patch";

function startsAt(ctx: ScanContext, i: number): boolean {
  const line = ctx.lines[i]!;
  const t = line.trim();
  return t === BEGIN || actionOf(line) !== undefined || (line.includes("<<") && heredocAt(ctx.lines, i) !== undefined);
}

function section(sc: SectionContext, at: number): SectionParse | undefined {
  const header = actionOf(sc.ctx.lines[at]!);
  if (header === undefined) return undefined;
  switch (header.action) {
    case "Add":
      return parseAdd(sc, at, header.path);
    case "Delete":
      return parseDelete(sc, at, header.path);
    case "Update":
      return parseUpdate(sc, at, header.path);
  }
}

/** Whether `*** End Patch` comes at or after `from`, before another patch begins. */
function endFollows(lines: readonly string[], from: number): boolean {
  for (let k = from; k < lines.length; k++) {
    const t = lines[k]!.trim();
    if (t === END) return true;
    if (t === BEGIN) return false;
  }
  return false;
}

function parseAt(ctx: ScanContext, i: number, fence: OpenFence | undefined): BlockParse {
  const { lines } = ctx;
  let j = i;
  const delimiter = lines[j]!.includes("<<") ? heredocAt(lines, j) : undefined;
  if (delimiter !== undefined) j++;
  while (j < lines.length && lines[j]!.trim() === "") j++;
  const hasBegin = j < lines.length && lines[j]!.trim() === BEGIN;
  const begin = j;
  if (hasBegin) j++;
  const sc: SectionContext = {
    ctx,
    strict: hasBegin || fence !== undefined || delimiter !== undefined,
    delimiter,
    fencesAreContent: hasBegin && endFollows(lines, j),
  };

  const items: ParsedItem[] = [];
  let last: { at: number; parse: SectionParse } | undefined;
  let ended = false;
  while (j < lines.length) {
    const line = lines[j]!;
    const t = line.trim();
    if (t === END) {
      ended = true;
      j++;
      break;
    }
    if ((delimiter !== undefined && t === delimiter) || (!sc.fencesAreContent && isFenceEnd(line))) break;
    if (t === "") {
      j++;
      continue;
    }
    const parsed = section(sc, j);
    if (parsed === undefined) {
      if (!sc.strict) break;
      const message = `line ${j + 1}: ${quoteLine(line)} is not a valid file header; valid headers are ${VALID_HEADERS}, and '${END}' ends the patch`;
      items.push(problemItem(FORMAT, j, undefined, message));
      j++;
      while (j < lines.length && lines[j]!.trim() !== END && !lines[j]!.trim().startsWith("*** ")) j++;
      continue;
    }
    if (last !== undefined) items.push(...last.parse.items);
    last = { at: j, parse: parsed };
    j = Math.max(parsed.next, j + 1);
    if (parsed.stop) break;
  }

  if (hasBegin && !ended) {
    const where = j >= lines.length ? `the reply ends at line ${lastLine(lines)}` : `line ${j + 1} ends the block`;
    const lost =
      last === undefined ? "" : `; the section at line ${last.at + 1} may be cut and was not applied, resend it`;
    const message = `the patch that begins at line ${begin + 1} has no '${END}': ${where} before it (truncated?)${lost}`;
    items.push(problemItem(FORMAT, last?.at ?? begin, undefined, message));
  } else if (last !== undefined) {
    items.push(...last.parse.items);
  } else if (hasBegin && items.length === 0) {
    const message = `the patch that begins at line ${begin + 1} holds no file section: write '*** Update File: PATH' (or Add/Delete) and its changes between '${BEGIN}' and '${END}'`;
    items.push(problemItem(FORMAT, begin, undefined, message));
  }
  if (delimiter !== undefined && j < lines.length && lines[j]!.trim() === delimiter) j++;
  return { items, next: Math.max(j, i + 1) };
}

export const applyPatch: Dialect = { name: FORMAT, prompt: APPLY_PATCH_PROMPT, startsAt, parseAt };
