/**
 * Writing a drifted edit in each dialect, the way models write them: SEARCH/REPLACE with the path before the
 * fence or inside it; unified diffs with correct, stale or missing numbers, wrong counts, or blank context lines
 * without their space; apply_patch with or without an `@@` anchor; the whole file.
 */
import type { ModelOp } from "./drift.js";
import type { Random } from "./random.js";
import type { Lang } from "./sources.js";
import { isBlankLine, leadingWs } from "./text.js";

export const DIALECTS = [
  "editblock",
  "editblock-in-fence",
  "udiff",
  "udiff-stale",
  "udiff-bare",
  "udiff-counts",
  "udiff-blank",
  "patch",
  "patch-anchor",
  "whole",
] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Dialects whose reply says where the edit is (a correct line number or an anchor). */
export const HINTED: ReadonlySet<Dialect> = new Set<Dialect>(["udiff", "udiff-counts", "udiff-blank", "patch-anchor"]);

export interface RenderInput {
  readonly dialect: Dialect;
  readonly path: string;
  readonly lang: Lang;
  readonly ops: readonly ModelOp[];
  /** 0-based file line of the first line the model's old side stands for (invented leading lines included). */
  readonly oldStart: number;
  /** The file's lines (for the anchor and for stale numbers that must not point at another occurrence). */
  readonly lines: readonly string[];
  readonly windowStart: number;
  /** Starts (0-based) of other occurrences of the window: stale numbers never point exactly at one. */
  readonly twins: readonly number[];
  /** whole only: the model's full new file. */
  readonly whole?: readonly string[];
  readonly rng: Random;
}

export const FENCE_LANG: Record<Lang, string> = {
  ts: "typescript",
  js: "javascript",
  py: "python",
  go: "go",
  make: "makefile",
  yaml: "yaml",
  sh: "bash",
};

export function fenceFor(body: readonly string[]): string {
  let longest = 2;
  for (const line of body) {
    const m = /^\s*(`{3,})/.exec(line);
    if (m !== null) longest = Math.max(longest, m[1]!.length);
  }
  return "`".repeat(longest + 1);
}

export function decoratePath(path: string, rng: Random): string {
  return rng.pick([path, path, `\`${path}\``, `**${path}**`, `./${path}`]);
}

export function editblock(input: RenderInput, inFence: boolean): string[] {
  const search = input.ops.filter((o) => o.op !== "add").map((o) => o.text);
  const replace = input.ops.filter((o) => o.op !== "remove").map((o) => o.text);
  const body = ["<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE"];
  const fence = fenceFor(body);
  if (inFence) return [fence + FENCE_LANG[input.lang], input.path, ...body, fence];
  return [decoratePath(input.path, input.rng), fence + FENCE_LANG[input.lang], ...body, fence];
}

export function hunkLines(ops: readonly ModelOp[], bareBlank: boolean): string[] {
  return ops.map((o) => {
    if (o.op === "add") return `+${o.text}`;
    if (o.op === "remove") return `-${o.text}`;
    return bareBlank && isBlankLine(o.text) ? "" : ` ${o.text}`;
  });
}

export function staleStart(input: RenderInput, start: number): number {
  for (let attempt = 0; attempt < 20; attempt++) {
    const shifted = start + input.rng.pick([-1, 1]) * input.rng.int(1, 40);
    const windowStart = input.windowStart + (shifted - start);
    if (shifted >= 1 && !input.twins.includes(windowStart)) return shifted;
  }
  return start + 41;
}

function udiff(input: RenderInput): string[] {
  const { dialect, rng } = input;
  let oldCount = input.ops.filter((o) => o.op !== "add").length;
  let newCount = input.ops.filter((o) => o.op !== "remove").length;
  let start = input.oldStart + 1;
  if (dialect === "udiff-stale") start = staleStart(input, start);
  if (dialect === "udiff-counts") {
    oldCount = Math.max(0, oldCount + rng.pick([-2, -1, 1, 2, 3]));
    newCount = Math.max(0, newCount + rng.pick([-2, -1, 1, 2]));
  }
  const header = dialect === "udiff-bare" ? "@@ @@" : `@@ -${start},${oldCount} +${start},${newCount} @@`;
  const git = rng.chance(0.3) ? [`diff --git a/${input.path} b/${input.path}`] : [];
  const body = [
    ...git,
    `--- a/${input.path}`,
    `+++ b/${input.path}`,
    header,
    ...hunkLines(input.ops, dialect === "udiff-blank"),
  ];
  return ["```diff", ...body, "```"];
}

/** The nearest line above the window that is less indented than its first line (a def, a class), else any. */
export function anchorLine(lines: readonly string[], windowStart: number): number | undefined {
  const first = lines.slice(windowStart).find((l) => !isBlankLine(l));
  const depth = leadingWs(first ?? "").length;
  let fallback: number | undefined;
  for (let n = windowStart - 1; n >= 0 && n >= windowStart - 40; n--) {
    const line = lines[n]!;
    if (isBlankLine(line)) continue;
    fallback ??= n;
    if (leadingWs(line).length < depth && /[A-Za-z]/.test(line)) return n;
  }
  return fallback;
}

function patch(input: RenderInput): string[] {
  const anchor = input.dialect === "patch-anchor" ? anchorLine(input.lines, input.windowStart) : undefined;
  const head = anchor === undefined ? "@@" : `@@ ${input.lines[anchor]!.trim()}`;
  return ["*** Begin Patch", `*** Update File: ${input.path}`, head, ...hunkLines(input.ops, false), "*** End Patch"];
}

function whole(input: RenderInput): string[] {
  const body = input.whole ?? [];
  const fence = fenceFor(body);
  return [decoratePath(input.path, input.rng), fence + FENCE_LANG[input.lang], ...body, fence];
}

const PREAMBLES = ["", "Here is the change:", "I'll update the file as requested.", "The fix:"];
const CODAS = ["", "This keeps the rest of the file as it is.", "Let me know if the tests still fail."];

/** The whole reply: optional prose, the block, optional prose. */
export function renderReply(input: RenderInput): string {
  let block: string[];
  switch (input.dialect) {
    case "editblock":
      block = editblock(input, false);
      break;
    case "editblock-in-fence":
      block = editblock(input, true);
      break;
    case "udiff":
    case "udiff-stale":
    case "udiff-bare":
    case "udiff-counts":
    case "udiff-blank":
      block = udiff(input);
      break;
    case "patch":
    case "patch-anchor":
      block = patch(input);
      break;
    case "whole":
      block = whole(input);
      break;
  }
  const before = input.rng.pick(PREAMBLES);
  const after = input.rng.pick(CODAS);
  return [...(before === "" ? [] : [before, ""]), ...block, ...(after === "" ? [] : ["", after]), ""].join("\n");
}
