/**
 * Judges a multi-edit case. The intended tree applies every edit at its intended place, in reply order; a
 * refusal (nothing written, a reason given) is always acceptable, and needless when every block must land.
 * Otherwise each edited file is judged edit by edit from the engine's per-edit results: edit k's `before`
 * should be the intended state after the earlier blocks, and its `after` is judged like a single-edit case
 * (oracle.ts `classifyAfter`: correct, a defensible alternative or whitespace-only difference → doubtful, else
 * wrong). When an earlier edit took a doubtful alternative, the later block's intended result is rebased onto
 * the engine's state (its window found by exact text), and so are its own alternatives. A block that must be refused (a recurring window without
 * a hint, text from another file) is wrong once applied, unless its drifted text is exactly another place's
 * (oracle.ts alternatives). Wrong also: a path outside the reply written, a failed edit while others were kept (the default is all or nothing), a file
 * the reply edits left unchanged, a created or deleted file not as asked.
 */
import { applyEdits } from "../../src/engine.js";
import type { EditResult } from "../../src/core/result.js";
import type { FilePlan, MultiBlock, MultiCase } from "./multi-case.js";
import {
  classifyAfter,
  firstDifference,
  sameModuloWhitespace,
  type Outcome,
  type Tags,
  type Verdict,
} from "./oracle.js";
import { exactKey, findAll, joinFile, splitFile } from "./text.js";

export interface MultiVerdict extends Verdict {
  /** The block the verdict is about (path and block index), for reports. */
  readonly where?: string;
}

const RANK: Record<Outcome, number> = { correct: 0, refused: 1, doubtful: 2, wrong: 3 };
const worst = (a: MultiVerdict, b: MultiVerdict): MultiVerdict => (RANK[b.outcome] > RANK[a.outcome] ? b : a);
const wrong = (detail: string, tags: Tags, where?: string): MultiVerdict => ({
  outcome: "wrong",
  needless: false,
  ...tags,
  detail,
  ...(where === undefined ? {} : { where }),
});

/**
 * What an alternative result of the block makes of its window, when it differs from the block's `before` only
 * there (the insertion on the other side of a dropped line does; one at another place does not).
 */
function windowReplacement(sub: MultiBlock["sub"], alternative: string): string[] | undefined {
  const before = splitFile(sub.before).lines;
  const lines = splitFile(alternative).lines;
  const start = sub.window.start - 1;
  const tail = before.length - (start + sub.window.size);
  if (lines.length < start + tail) return undefined;
  for (let i = 0; i < start; i++) if (lines[i] !== before[i]) return undefined;
  for (let i = 1; i <= tail; i++) if (lines[lines.length - i] !== before[before.length - i]) return undefined;
  return lines.slice(start, lines.length - tail);
}

/**
 * The block's sub-case over another `before` (the engine's state), its window found by exact text; an alternative
 * that only rewrites the window holds there too.
 */
function rebase(block: MultiBlock, before: string): MultiBlock["sub"] | undefined {
  const file = splitFile(before);
  const at = findAll(file.lines, block.window, exactKey);
  if (at.length !== 1) return undefined;
  const p = at[0]!;
  const placed = (replacement: readonly string[]): string =>
    joinFile(file, [...file.lines.slice(0, p), ...replacement, ...file.lines.slice(p + block.window.length)]);
  const alternatives = block.sub.alternatives.flatMap((a) => {
    const replacement = windowReplacement(block.sub, a.text);
    return replacement === undefined ? [] : [{ text: placed(replacement), why: a.why }];
  });
  return {
    ...block.sub,
    before,
    intended: placed(block.replacement),
    alternatives,
    window: { start: p + 1, size: block.window.length },
  };
}

function judgeEditFile(
  plan: Extract<FilePlan, { kind: "edit" }>,
  results: readonly EditResult[],
  final: string,
  tags: Tags,
): MultiVerdict {
  const applied = results.filter((r) => r.ok && r.path === plan.path);
  const where = (k: number): string => `${plan.path} block ${k + 1}/${plan.blocks.length}`;
  if (applied.length !== plan.blocks.length) {
    // The parser saw another number of edits: only the final text can be judged.
    if (plan.blocks.some((b) => b.sub.expect === "refuse"))
      return wrong("applied a block that must be refused (edits and blocks do not pair up)", tags, plan.path);
    if (final === plan.intended) return { outcome: "correct", needless: false, ...tags };
    if (sameModuloWhitespace(final, plan.intended))
      return {
        outcome: "doubtful",
        needless: false,
        ...tags,
        detail: `whitespace: ${firstDifference(final, plan.intended)}`,
        where: plan.path,
      };
    return wrong(
      `${applied.length} edits for ${plan.blocks.length} blocks: ${firstDifference(final, plan.intended)}`,
      tags,
      plan.path,
    );
  }
  let verdict: MultiVerdict = { outcome: "correct", needless: false, ...tags };
  for (const [k, block] of plan.blocks.entries()) {
    const r = applied[k]!;
    if (!r.ok) continue;
    const sub = r.before === block.sub.before ? block.sub : rebase(block, r.before);
    if (sub === undefined) {
      verdict = worst(verdict, {
        outcome: "doubtful",
        needless: false,
        ...tags,
        detail: "not judged: rests on a doubtful earlier edit",
        where: where(k),
      });
      continue;
    }
    verdict = worst(verdict, { ...classifyAfter(sub, r.after, { strategy: r.strategy }), where: where(k) });
  }
  const last = applied[applied.length - 1];
  if (last?.ok === true && last.after !== final)
    verdict = worst(verdict, wrong("the written file is not the last edit's result", tags, plan.path));
  return verdict;
}

/** A created file as asked, in the project's line endings. */
function judgeCreate(content: string, got: string | null | undefined, tags: Tags, where: string): MultiVerdict {
  if (got === undefined || got === null)
    return wrong(got === null ? "deleted a file the reply creates" : "did not create the file", tags, where);
  if (got === content || got === content.replace(/\n/g, "\r\n"))
    return { outcome: "correct", needless: false, ...tags };
  if (got.replace(/\r\n/g, "\n").trimEnd() === content.trimEnd())
    return { outcome: "doubtful", needless: false, ...tags, detail: "created file: final newline differs", where };
  return wrong(`created file: ${firstDifference(got, content)}`, tags, where);
}

export async function judgeMulti(m: MultiCase): Promise<MultiVerdict> {
  const existing = new Map<string, string>();
  for (const f of m.files) if (f.kind !== "create") existing.set(f.path, f.before);
  let result;
  try {
    result = await applyEdits(m.reply, (p) => existing.get(p), { knownPaths: [...existing.keys()] });
  } catch (error) {
    return wrong(`engine threw: ${error instanceof Error ? error.message : String(error)}`, {});
  }
  const firstOk = result.results.find((r) => r.ok);
  const firstFailed = result.results.find((r) => !r.ok);
  const tags: Tags = {
    ...(firstOk === undefined ? {} : { strategy: firstOk.strategy }),
    ...(firstFailed === undefined ? {} : { reason: firstFailed.reason }),
  };
  if (result.files.size === 0) {
    if (firstFailed !== undefined) return { outcome: "refused", needless: m.mustLand, ...tags };
    return {
      outcome: "doubtful",
      needless: false,
      ...tags,
      detail: result.results.length === 0 ? "nothing parsed, no failure" : "reported success without changing anything",
    };
  }
  const named = new Set(m.files.map((f) => f.path));
  const others = [...result.files.keys()].filter((p) => !named.has(p));
  if (others.length > 0) return wrong(`wrote paths the reply does not edit: ${others.join(", ")}`, tags);
  if (firstFailed !== undefined)
    return wrong(
      `kept other edits although ${firstFailed.path} failed (${firstFailed.reason})`,
      tags,
      firstFailed.path,
    );
  let verdict: MultiVerdict = { outcome: "correct", needless: false, ...tags };
  for (const f of m.files) {
    const got = result.files.get(f.path);
    if (f.kind === "create") verdict = worst(verdict, judgeCreate(f.content, got, tags, f.path));
    else if (f.kind === "delete") {
      if (got !== null) verdict = worst(verdict, wrong("did not delete the file", tags, f.path));
    } else if (got === undefined || got === null) {
      if (f.intended !== f.before)
        verdict = worst(
          verdict,
          wrong(got === null ? "deleted an edited file" : "left an edited file unchanged", tags, f.path),
        );
    } else verdict = worst(verdict, judgeEditFile(f, result.results, got, tags));
  }
  return verdict;
}
