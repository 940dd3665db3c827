/**
 * Writing a multi-edit reply: several blocks for one file in its dialect (SEARCH/REPLACE blocks one after
 * another, one unified diff with several hunks numbered in the ORIGINAL file, one apply_patch Update with several
 * chunks), a created and a deleted file, and several files one after another. Adjacent diff (or patch) sections
 * are sometimes merged into one fence (or one envelope), as models do.
 */
import type { ModelOp } from "./drift.js";
import type { Random } from "./random.js";
import { decoratePath, editblock, fenceFor, FENCE_LANG, hunkLines, type Dialect } from "./render.js";
import type { Lang } from "./sources.js";

/** One block as the reply writes it. */
export interface BlockText {
  readonly ops: readonly ModelOp[];
  /** 1-based line of the old side in the ORIGINAL file (udiff `-a`), and the new side's in the final file (`+c`). */
  readonly oldLine: number;
  readonly newLine: number;
  /** patch-anchor: the `@@` line's text (a line above the window), when there is one. */
  readonly anchor?: string;
  /** Shifts a stale number must not take (they would point at another occurrence of the window). */
  readonly avoid?: readonly number[];
}

export type Section =
  | {
      readonly kind: "edit";
      readonly path: string;
      readonly lang: Lang;
      readonly dialect: Dialect;
      readonly blocks: readonly BlockText[];
    }
  | {
      readonly kind: "create";
      readonly path: string;
      readonly lang: Lang;
      readonly dialect: Dialect;
      readonly lines: readonly string[];
    }
  | { readonly kind: "delete"; readonly path: string; readonly dialect: Dialect; readonly lines: readonly string[] };

type Family = "udiff" | "patch" | "other";
interface Piece {
  readonly family: Family;
  readonly lines: readonly string[];
}

const familyOf = (d: Dialect): Family => (d.startsWith("udiff") ? "udiff" : d.startsWith("patch") ? "patch" : "other");

/**
 * A hunk's header. `earlier` holds the stale shifts of the file's hunks before it: the engine moves a hunk's number
 * by the drift at which the hunk above it was found (as GNU patch carries an offset), so a shift that, less one of
 * those, points at another occurrence would be a right hint too.
 */
function hunkHeader(dialect: Dialect, b: BlockText, rng: Random, earlier: number[]): string {
  let oldCount = b.ops.filter((o) => o.op !== "add").length;
  let newCount = b.ops.filter((o) => o.op !== "remove").length;
  let oldLine = b.oldLine;
  let newLine = b.newLine;
  if (dialect === "udiff-bare") return "@@ @@";
  if (dialect === "udiff-stale") {
    let shift = rng.pick([-1, 1]) * rng.int(1, 40);
    if (oldLine + shift < 1) shift = -shift;
    const avoided = (n: number): boolean => [0, ...earlier].some((e) => b.avoid?.includes(n - e) === true);
    // Away from the right number; a backward shift that would leave the file turns forward (there is no line 0).
    const next = (n: number): number => (n > 0 ? n + 1 : oldLine + n - 1 >= 1 ? n - 1 : 1);
    while (avoided(shift) || oldLine + shift < 1) shift = next(shift);
    earlier.push(shift);
    oldLine += shift;
    newLine += shift;
  }
  if (dialect === "udiff-counts") {
    oldCount = Math.max(0, oldCount + rng.pick([-2, -1, 1, 2, 3]));
    newCount = Math.max(0, newCount + rng.pick([-2, -1, 1, 2]));
  }
  return `@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`;
}

function editPiece(s: Extract<Section, { kind: "edit" }>, rng: Random): Piece {
  const family = familyOf(s.dialect);
  if (family === "udiff") {
    const git = rng.chance(0.3) ? [`diff --git a/${s.path} b/${s.path}`] : [];
    const shifts: number[] = [];
    const hunks = s.blocks.flatMap((b) => [
      hunkHeader(s.dialect, b, rng, shifts),
      ...hunkLines(b.ops, s.dialect === "udiff-blank"),
    ]);
    return { family, lines: [...git, `--- a/${s.path}`, `+++ b/${s.path}`, ...hunks] };
  }
  if (family === "patch") {
    const chunks = s.blocks.flatMap((b) => [
      b.anchor === undefined ? "@@" : `@@ ${b.anchor.trim()}`,
      ...hunkLines(b.ops, false),
    ]);
    return { family, lines: [`*** Update File: ${s.path}`, ...chunks] };
  }
  const inFence = s.dialect === "editblock-in-fence";
  const blocks = s.blocks.map((b) =>
    editblock(
      {
        dialect: s.dialect,
        path: s.path,
        lang: s.lang,
        ops: b.ops,
        oldStart: 0,
        lines: [],
        windowStart: 0,
        twins: [],
        rng,
      },
      inFence,
    ),
  );
  return { family, lines: blocks.flatMap((b, i) => (i === 0 ? b : ["", ...b])) };
}

function createPiece(s: Extract<Section, { kind: "create" }>, rng: Random): Piece {
  const family = familyOf(s.dialect);
  if (family === "udiff")
    return {
      family,
      lines: ["--- /dev/null", `+++ b/${s.path}`, `@@ -0,0 +1,${s.lines.length} @@`, ...s.lines.map((l) => `+${l}`)],
    };
  if (family === "patch") return { family, lines: [`*** Add File: ${s.path}`, ...s.lines.map((l) => `+${l}`)] };
  const fence = fenceFor(s.lines);
  if (s.dialect === "whole")
    return { family, lines: [decoratePath(s.path, rng), fence + FENCE_LANG[s.lang], ...s.lines, fence] };
  const body = ["<<<<<<< SEARCH", "=======", ...s.lines, ">>>>>>> REPLACE"];
  return { family, lines: [s.path, fence + FENCE_LANG[s.lang], ...body, fence] };
}

function deletePiece(s: Extract<Section, { kind: "delete" }>): Piece {
  if (familyOf(s.dialect) === "udiff") {
    const header = `@@ -1,${s.lines.length} +0,0 @@`;
    return { family: "udiff", lines: [`--- a/${s.path}`, "+++ /dev/null", header, ...s.lines.map((l) => `-${l}`)] };
  }
  return { family: "patch", lines: [`*** Delete File: ${s.path}`] };
}

function wrap(family: Family, bodies: readonly (readonly string[])[]): string[] {
  if (family === "udiff") return ["```diff", ...bodies.flat(), "```"];
  if (family === "patch") return ["*** Begin Patch", ...bodies.flat(), "*** End Patch"];
  return bodies.flatMap((b, i) => (i === 0 ? b : ["", ...b]));
}

const PREAMBLES = ["", "Here are the changes:", "I'll make the following edits.", "The fix touches several places:"];
const CODAS = ["", "Nothing else needs to change.", "Run the tests again after applying these."];

/** The whole reply: optional prose, the sections in order (adjacent diff or patch sections sometimes merged). */
export function renderMulti(sections: readonly Section[], rng: Random): string {
  const pieces = sections.map((s) =>
    s.kind === "edit" ? editPiece(s, rng) : s.kind === "create" ? createPiece(s, rng) : deletePiece(s),
  );
  const groups: { family: Family; bodies: (readonly string[])[] }[] = [];
  for (const p of pieces) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.family === p.family && p.family !== "other" && rng.chance(0.5))
      last.bodies.push(p.lines);
    else groups.push({ family: p.family, bodies: [p.lines] });
  }
  const blocks = groups.map((g) => wrap(g.family, g.bodies));
  const before = rng.pick(PREAMBLES);
  const after = rng.pick(CODAS);
  const body = blocks.flatMap((b, i) => (i === 0 ? b : ["", ...b]));
  return [...(before === "" ? [] : [before, ""]), ...body, ...(after === "" ? [] : ["", after]), ""].join("\n");
}
