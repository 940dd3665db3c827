/**
 * Multi-edit cases: one reply that changes 2–4 windows of one file (in file order, out of order, or with a block
 * whose SEARCH holds text an earlier block wrote), several files in mixed dialects with a created and a deleted
 * file, and transactions (one block that must be refused among good ones: the whole reply must be refused).
 *
 * Each block is built like a single-edit case (faults.ts `buildBlock`, same drift kinds) over the file as the
 * earlier blocks left it: edits apply in order, each against the result of the earlier ones. So every block
 * is also a single-edit sub-case (before = the state before it, intended = the state after it), which the
 * oracle judges one by one against the engine's per-edit results.
 */
import { DRIFT_KINDS, type DriftKind } from "./drift.js";
import { buildBlock, caseOf, type Block, type DriftCase, type Expectation, type FaultKind } from "./faults.js";
import { renderMulti, type BlockText, type Section } from "./multi-render.js";
import { caseSeed, createRandom, type Random } from "./random.js";
import { anchorLine, HINTED, type Dialect } from "./render.js";
import { pickSource, pickVariant, withVariant, type Lang, type SourceFile } from "./sources.js";
import { joinFile, looseKey, splitFile, type FileText } from "./text.js";

export const MULTI_KINDS = ["sequential", "out-of-order", "dependent", "multi-file", "transaction"] as const;
export type MultiKind = (typeof MULTI_KINDS)[number];

const EDIT_DIALECTS: readonly Dialect[] = [
  "editblock",
  "editblock-in-fence",
  "udiff",
  "udiff-stale",
  "udiff-bare",
  "udiff-counts",
  "udiff-blank",
  "patch",
  "patch-anchor",
];
const SR_DIALECTS: readonly Dialect[] = ["editblock", "editblock-in-fence"];

/** One block of a multi-edit file: the single-edit sub-case it amounts to, and its window for rebasing. */
export interface MultiBlock {
  readonly sub: DriftCase;
  /** The window's lines in `sub.before`, and what they become. */
  readonly window: readonly string[];
  readonly replacement: readonly string[];
}

export type FilePlan =
  | {
      readonly kind: "edit";
      readonly path: string;
      readonly dialect: Dialect;
      readonly before: string;
      readonly intended: string;
      readonly blocks: readonly MultiBlock[];
    }
  | { readonly kind: "create"; readonly path: string; readonly dialect: Dialect; readonly content: string }
  | { readonly kind: "delete"; readonly path: string; readonly dialect: Dialect; readonly before: string };

export interface MultiCase {
  readonly id: string;
  readonly kind: MultiKind;
  readonly files: readonly FilePlan[];
  readonly reply: string;
  readonly expect: Expectation;
  /** Every block must land (mild drift on loosely unique windows) and none must be refused. */
  readonly mustLand: boolean;
}

interface FileOptions {
  readonly blocks: number;
  readonly order: "ascending" | "out-of-order" | "dependent";
  /** Index of the block that must be refused (transactions). */
  readonly refuseAt?: number;
}

/** A block's fault: mostly one drift kind; in file order sometimes a window that recurs (hints decide). */
function pickFault(rng: Random, ascending: boolean): FaultKind {
  if (ascending && rng.chance(0.1)) return rng.pick(["ambiguous", "ambiguous-1line"] as const);
  return rng.chance(0.35) ? "none" : rng.pick(DRIFT_KINDS);
}
const PLACEMENT_DRIFT: readonly DriftKind[] = ["none", "none", "indent-shift", "trailing-added", "unicode"];

/** A block whose text is nowhere in the file (taken from another file): any engine must refuse it. */
function foreignBlock(rng: Random, target: FileText, lang: Lang, dialect: Dialect): Block | undefined {
  const source = pickSource(rng);
  const block = buildBlock({ rng, file: splitFile(source.raw), lang, dialect, fault: "none", drift: "none" });
  if (block === undefined) return undefined;
  const known = new Set(target.lines.map(looseKey));
  const old = block.ops.filter((o) => o.op !== "add").map((o) => looseKey(o.text));
  if (old.some((l) => l !== "" && known.has(l))) return undefined;
  return { ...block, expect: "refuse", mustLand: false, note: `text from ${source.path}`, alternatives: [] };
}

function editFile(rng: Random, id: string, source: SourceFile, dialect: Dialect, opts: FileOptions) {
  const faults: FaultKind[] = [];
  for (let k = 0; k < opts.blocks; k++)
    faults.push(k === opts.refuseAt ? "ambiguous" : pickFault(rng, opts.order === "ascending"));
  const unhinted = !HINTED.has(dialect);
  const variant = pickVariant(rng, source, {
    crlf: faults.includes("crlf"),
    trailing: faults.includes("trailing-removed"),
  });
  const before = withVariant(source, variant);
  let file = splitFile(before);
  // Per line of the current state: its 0-based line in the original file, or -(k + 1) when block k wrote it.
  let origin = file.lines.map((_, n) => n);
  let claimed = file.lines.map(() => false);
  let delta = 0;
  const blocks: MultiBlock[] = [];
  const texts: BlockText[] = [];
  for (let k = 0; k < opts.blocks; k++) {
    const fault = faults[k]!;
    const free = (s: number, size: number): boolean => {
      for (let n = Math.max(0, s - 1); n <= Math.min(file.lines.length - 1, s + size); n++)
        if (claimed[n]) return false;
      return true;
    };
    const lastClaimed = claimed.lastIndexOf(true);
    const firstClaimed = claimed.indexOf(true);
    const dependent = opts.order === "dependent" && k > 0;
    const wrote = dependent ? origin.flatMap((o, n) => (o === -k ? [n] : [])) : [];
    if (dependent && wrote.length === 0) return undefined;
    const accept = (s: number, size: number): boolean => {
      if (dependent) return wrote.some((n) => n >= s && n < s + size);
      if (!free(s, size)) return false;
      if (opts.order === "out-of-order" && k === 1 && s + size >= firstClaimed) return false;
      if (opts.order === "ascending" && s <= lastClaimed + 1) return false;
      if (dialect === "patch-anchor") {
        const anchor = anchorLine(file.lines, s);
        if (anchor !== undefined && (claimed[anchor] === true || anchor <= lastClaimed)) return false;
      }
      return true;
    };
    let block: Block | undefined;
    // A block from another file: its numbers (start, twins) are that file's.
    let foreign = false;
    for (let attempt = 0; attempt < 8 && block === undefined; attempt++) {
      foreign = k === opts.refuseAt && (!unhinted || rng.chance(0.5));
      if (foreign) block = foreignBlock(rng, file, source.lang, dialect);
      else {
        const placed = fault === "ambiguous" || fault === "ambiguous-1line";
        const drift = k === opts.refuseAt ? "none" : placed ? rng.pick(PLACEMENT_DRIFT) : fault;
        block = buildBlock({
          rng,
          file,
          lang: source.lang,
          dialect,
          fault,
          drift,
          placement: { accept, ...(dependent ? { around: wrote } : {}) },
        });
      }
    }
    if (block === undefined) return undefined;
    const grown = block.after.length - file.lines.length;
    const oldLine = foreign ? rng.int(1, file.lines.length) : origin[block.start]! - (block.start - block.oldStart) + 1;
    const anchorAt = dialect === "patch-anchor" && !foreign ? anchorLine(file.lines, block.start) : undefined;
    const text: BlockText = {
      ops: block.ops,
      oldLine,
      newLine: oldLine + delta,
      // A stale number must never point exactly at another occurrence, nor, once the engine carries an earlier
      // hunk's offset, at this one (0): it would then be a right hint. Numbers are read in the original file's
      // lines (the engine shifts them by the edits above), so an occurrence made of original lines is avoided
      // where it stood there too.
      avoid: [
        0,
        ...block.twins.flatMap((t) => {
          const here = t - block.start;
          const there = origin[t]! >= 0 && origin[block.start]! >= 0 ? origin[t]! - origin[block.start]! : here;
          return there === here ? [here] : [here, there];
        }),
      ],
      ...(anchorAt === undefined ? {} : { anchor: file.lines[anchorAt]! }),
    };
    texts.push(text);
    const stateBefore = joinFile(file, file.lines);
    const sub = caseOf(
      `${id}#${k}`,
      source,
      variant,
      dialect,
      fault,
      stateBefore,
      renderMulti([{ kind: "edit", path: source.path, lang: source.lang, dialect, blocks: [text] }], rng),
      block,
    );
    blocks.push({
      sub,
      window: file.lines.slice(block.start, block.start + block.size),
      replacement: block.after.slice(block.start, block.start + block.size + grown),
    });
    if (foreign) {
      // Never applied: the state stays as it is for the blocks after it.
      continue;
    }
    const middle = block.intent.ops.flatMap((o) =>
      o.op === "remove" ? [] : [o.op === "context" ? origin[o.line]! : -(k + 1)],
    );
    origin = [...origin.slice(0, block.start), ...middle, ...origin.slice(block.start + block.size)];
    claimed = [...claimed.slice(0, block.start), ...middle.map(() => true), ...claimed.slice(block.start + block.size)];
    file = { ...file, lines: block.after };
    delta += grown;
  }
  const plan: FilePlan = {
    kind: "edit",
    path: source.path,
    dialect,
    before,
    intended: joinFile(file, file.lines),
    blocks,
  };
  const section: Section = { kind: "edit", path: source.path, lang: source.lang, dialect, blocks: texts };
  return { plan, section };
}

const NEW_FILE: Record<"ts" | "py", (n: number) => string[]> = {
  ts: (n) => [
    `/** Added by the drift harness (${n}). */`,
    `export function driftHelper${n}(value: number): number {`,
    `  return value * ${n};`,
    "}",
  ],
  py: (n) => [
    `"""Added by the drift harness (${n})."""`,
    "",
    "",
    `def drift_helper_${n}(value):`,
    `    return value * ${n}`,
  ],
};

function combine(plans: readonly MultiBlock[]): { expect: Expectation; mustLand: boolean } {
  const subs = plans.map((b) => b.sub);
  const expect: Expectation = subs.some((s) => s.expect === "refuse")
    ? "refuse"
    : subs.every((s) => s.expect === "apply")
      ? "apply"
      : "either";
  return { expect, mustLand: expect === "apply" && subs.every((s) => s.mustLand) };
}

function tryMulti(id: string, rng: Random, kind: MultiKind): MultiCase | undefined {
  const transaction = kind === "transaction";
  const manyFiles = kind === "multi-file" || (transaction && rng.chance(0.5));
  const fileCount = manyFiles ? rng.int(2, 3) : 1;
  const refuseFile = transaction ? rng.int(0, fileCount - 1) : -1;
  const sections: Section[] = [];
  const plans: FilePlan[] = [];
  const paths = new Set<string>();
  for (let f = 0; f < fileCount; f++) {
    const source = pickSource(rng);
    if (paths.has(source.path)) return undefined;
    paths.add(source.path);
    const order =
      kind === "dependent"
        ? "dependent"
        : kind === "out-of-order"
          ? "out-of-order"
          : rng.pick(["ascending", "ascending", "out-of-order"] as const);
    const dialect = order === "ascending" ? rng.pick(EDIT_DIALECTS) : rng.pick(SR_DIALECTS);
    const count = manyFiles ? rng.int(1, 3) : rng.int(2, 4);
    const built = editFile(rng, `${id}/${f}`, source, dialect, {
      blocks: count,
      order,
      ...(f === refuseFile ? { refuseAt: rng.int(0, count - 1) } : {}),
    });
    if (built === undefined) return undefined;
    plans.push(built.plan);
    sections.push(built.section);
  }
  if (manyFiles) {
    const other = pickSource(rng);
    if (paths.has(other.path)) return undefined;
    const lines = withVariant(other, pickVariant(rng, other, { crlf: false, trailing: false }));
    const dialect = rng.pick(["udiff", "patch"] as const);
    const deleteLines = splitFile(lines).lines;
    if (dialect === "udiff" && deleteLines.length > 300) return undefined;
    plans.push({ kind: "delete", path: other.path, dialect, before: lines });
    sections.splice(rng.int(0, sections.length), 0, { kind: "delete", path: other.path, dialect, lines: deleteLines });
    const lang = rng.pick(["ts", "py"] as const);
    const n = rng.int(1, 999);
    const path = `${plans[0]!.path.split("/").slice(0, -1).join("/") || "."}/drift_new_${n}.${lang}`.replace(
      /^\.\//,
      "",
    );
    if (paths.has(path)) return undefined;
    const content = NEW_FILE[lang](n);
    const createDialect = rng.pick(["editblock", "udiff", "patch", "whole"] as const);
    plans.push({ kind: "create", path, dialect: createDialect, content: `${content.join("\n")}\n` });
    sections.splice(rng.int(0, sections.length), 0, {
      kind: "create",
      path,
      lang,
      dialect: createDialect,
      lines: content,
    });
  }
  const all = plans.flatMap((p) => (p.kind === "edit" ? p.blocks : []));
  if (plans.some((p) => p.kind === "edit" && p.intended === p.before && !transaction)) return undefined;
  return { id, kind, files: plans, reply: renderMulti(sections, rng), ...combine(all) };
}

/** Multi-edit case `index` of a seeded run; the same (seed, index) always gives the same case. */
export function generateMultiCase(seed: number, index: number): MultiCase {
  const rng = createRandom(caseSeed(seed ^ 0x5eed, index));
  const kind = rng.pick(MULTI_KINDS);
  for (let attempt = 0; attempt < 100; attempt++) {
    const built = tryMulti(`m${seed}:${index}`, rng, kind);
    if (built !== undefined) return built;
  }
  throw new Error(`drift harness: could not build multi-edit case ${seed}:${index} (${kind})`);
}
