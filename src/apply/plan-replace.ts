/**
 * The replace step: locate an edit's old lines in the file as earlier edits of the reply left it, splice the new
 * lines in, and return the result (model-readable refusals come from feedback.ts). The document's own lookup
 * (exact-doc.ts) settles most edits; the ladder runs on a parsed copy for the rest.
 */
import type { ReplaceEdit } from "../core/edit.js";
import type { LineDoc } from "../core/lines/doc.js";
import type { AppliedEdit, EditResult, Strategy } from "../core/result.js";
import type { TextFile } from "../core/text.js";
import { isAlreadyApplied } from "../matcher/already-applied.js";
import { soleLineWindow } from "../matcher/exact-doc.js";
import { stripCarriageReturn } from "../matcher/normalize.js";
import { STYLE_SAMPLE_LINES, fileIndentStyle, inheritIndentStyle } from "../matcher/indent-structure.js";
import { locate, onlyEllipses } from "../matcher/ladder.js";
import { oldSide, straightAlignment } from "../matcher/old-side.js";
import type { LocateResult, Match } from "../matcher/types.js";
import { lineWindowDoubt } from "../matcher/window-doubts.js";
import { alreadyInserted } from "./already-inserted.js";
import { withDroppedBlankLines } from "./dropped-blank-lines.js";
import { describe } from "./feedback.js";
import { plainIndentedEdit } from "./plain-indentation.js";
import { copiesInDoubt } from "./removal-slides.js";
import { changedRange, foundDrift, hintOffset, recordShift, writtenBySection, type LineShift } from "./plan-offsets.js";
import { fail, refuseExisting, type StepContext } from "./plan-steps.js";
import { TextBody } from "./plan-tree.js";
import { renderSplice } from "./splice.js";

/**
 * An applied replace whose `before`/`after` texts are produced on first read: a caller that only looks at the
 * outcome (or at the final files) never pays for serialising every intermediate version of a large file. A class,
 * not an object literal with getter closures: such a literal gets a new hidden class per result, and the engine
 * kept those classes (and through them every result's file versions) alive until a full collection. `toJSON`
 * serialises it like a plain result.
 */
class LazyApplied implements AppliedEdit {
  readonly ok = true;
  readonly #from: TextBody;
  readonly #to: TextBody;

  constructor(
    readonly path: string,
    readonly edit: ReplaceEdit,
    from: TextBody,
    to: TextBody,
    readonly strategy: Strategy,
    readonly lines: { readonly start: number; readonly end: number },
    readonly found: { readonly start: number; readonly end: number },
  ) {
    this.#from = from;
    this.#to = to;
  }

  get before(): string {
    return this.#from.content;
  }

  get after(): string {
    return this.#to.content;
  }

  toJSON(): AppliedEdit {
    const { ok, path, edit, before, after, strategy, lines, found } = this;
    return { ok, path, edit, before, after, strategy, lines, found };
  }
}

/** The parsed form of a version, styled like the version the reply started from (as the splice is). */
function parsedFile(doc: LineDoc): TextFile {
  const file = doc.file;
  inheritIndentStyle(doc.originHead(STYLE_SAMPLE_LINES), file);
  return file;
}

/**
 * The ladder's first steps, on the document itself: an edit whose old lines occur exactly once, byte for byte or
 * with only line endings differing, is found through the document's line index, without parsing the current
 * version or scanning it; "none" when those rungs have no window at all (the ladder then starts at the third).
 * Anything else (several windows, one that line endings alone single out, an insertion) is left to the full
 * ladder, which repeats this step and decides as always.
 */
function locateExactly(doc: LineDoc, edit: ReplaceEdit): Match | "none" | undefined {
  const old = oldSide(edit.ops);
  if (old.length === 0 || onlyEllipses(old)) return undefined;
  const sole = soleLineWindow(
    doc,
    old.map((l) => l.text),
  );
  if (sole === undefined) return undefined;
  if (sole.start === undefined) return "none";
  const { start, strategy } = sole;
  // A window that is still no sure place is the ladder's to judge and refuse (matcher/window-doubts.ts).
  const lineAt = (i: number): string => stripCarriageReturn(doc.line(i));
  if (lineWindowDoubt(lineAt, doc.length, edit.ops, old, start, true) !== undefined) return undefined;
  return { start, end: start + old.length, strategy, alignment: straightAlignment(old, start) };
}

/**
 * What a replace edit says, as a key: two edits of one reply with the same key are one edit written twice (models
 * repeat a block now and then). Applying both would make the change twice where its lines are still found (an
 * insertion keeps its SEARCH lines), and refuse the reply where they are not.
 */
function repeatKey(path: string, edit: ReplaceEdit): string {
  const { ops, hint, oldEndsWithoutNewline, newEndsWithoutNewline } = edit;
  return JSON.stringify([path, ops, hint, oldEndsWithoutNewline ?? null, newEndsWithoutNewline ?? null]);
}

/** An applied edit that leaves the file as it is: a repeat of an earlier one, or one that changes nothing. */
function unchanged(
  path: string,
  edit: ReplaceEdit,
  body: TextBody,
  strategy: Strategy,
  why: Pick<AppliedEdit, "repeatOf" | "changesNothing">,
): AppliedEdit {
  return {
    ok: true,
    path,
    edit,
    get before() {
      return body.content;
    },
    get after() {
      return body.content;
    },
    strategy,
    ...why,
  };
}

/** The first line (0-based) the edit would remove that an earlier hunk of its diff wrote, if any. */
function removedWritten(
  edit: ReplaceEdit,
  match: Match,
  shifts: readonly LineShift[],
  section: number,
): number | undefined {
  for (const a of match.alignment) {
    if (edit.ops[a.op]!.op !== "remove") continue;
    for (let line = a.start; line < a.end; line++) if (writtenBySection(shifts, line, section)) return line;
  }
  return undefined;
}

/** Whether the edit keeps every line it quotes, and the final newline as it is. */
const keepsEverything = (edit: ReplaceEdit): boolean =>
  edit.ops.length > 0 &&
  edit.ops.every((op) => op.op === "context") &&
  edit.oldEndsWithoutNewline === edit.newEndsWithoutNewline;

function locateEdit(doc: LineDoc, edit: ReplaceEdit, offset: number): LocateResult {
  const exact = locateExactly(doc, edit);
  return exact === undefined || exact === "none"
    ? locate(
        parsedFile(doc),
        { ops: edit.ops, hint: edit.hint, path: edit.path },
        { hintOffset: offset, noExactWindow: exact === "none" },
      )
    : { kind: "found", match: exact };
}

/**
 * The edit located as written; when it is found nowhere, read once more with the blank lines the SEARCH dropped
 * between its lines (dropped-blank-lines.ts), which must then be found on a line rung: the fuzzy rung already
 * weighed the lines without them.
 */
function locateWithBlankLines(
  doc: LineDoc,
  edit: ReplaceEdit,
  offset: number,
): { edit: ReplaceEdit; located: LocateResult } {
  const located = locateEdit(doc, edit, offset);
  if (located.kind !== "not-found") return { edit, located };
  const variant = withDroppedBlankLines(edit);
  if (variant === undefined) return { edit, located };
  const again = locateEdit(doc, variant, offset);
  return again.kind === "found" && again.match.strategy !== "fuzzy"
    ? { edit: variant, located: again }
    : { edit, located };
}

export function planReplace(ctx: StepContext, written: ReplaceEdit, path: string): EditResult {
  const entry = ctx.tree.entry(path);
  if (entry.kind !== "text") return refuseExisting(entry, path, written)!;
  const doc = entry.body.doc;
  const plain = plainIndentedEdit(written, doc.length, (i) => doc.line(i));
  const key = repeatKey(path, plain);
  const first = ctx.applied.get(key);
  if (first !== undefined)
    return unchanged(path, plain, entry.body, first.strategy, { repeatOf: first.edit.origin.line });
  const shifts = ctx.offsets.get(path) ?? [];
  const offset = plain.hint.line === undefined ? 0 : hintOffset(shifts, plain.hint.line - 1);
  const { edit, located } = locateWithBlankLines(doc, plain, offset);
  // An edit that changes nothing changes nothing at any of its places, so where the lines occur several times it is
  // not ambiguous. (A block repeating lines unchanged is a model's habit; refusing it would refuse the whole reply
  // over no difference.)
  if (located.kind !== "not-found" && keepsEverything(edit)) {
    const found = located.kind === "found";
    const kept = unchanged(path, edit, entry.body, found ? located.match.strategy : located.strategy, {
      changesNothing: { at: found ? [located.match.start + 1] : [...new Set(located.lines)] },
    });
    ctx.applied.set(key, kept);
    return kept;
  }
  switch (located.kind) {
    case "found": {
      const made = alreadyInserted(edit, located.match, doc.length, (i) => doc.line(i));
      if (made !== undefined) return fail(path, edit, "already-applied", describe.alreadyInserted(path, edit, made));
      // A diff's hunks are made against the file as it was: one removing a line an earlier hunk wrote is misplaced.
      const { section } = edit.origin;
      const taken = section === undefined ? undefined : removedWritten(edit, located.match, shifts, section);
      if (taken !== undefined) {
        return fail(path, edit, "hunk-context-mismatch", describe.removesWritten(path, edit, taken + 1));
      }
      const indent = {
        style: () => fileIndentStyle(doc.originHead(STYLE_SAMPLE_LINES)),
        kind: () => doc.originIndentKind(STYLE_SAMPLE_LINES),
      };
      const splice = renderSplice(doc, edit, located.match, indent);
      // Which of two equal SEARCH lines goes is the derivation's pick (a diff's own, unless the match finds the
      // copies apart); where the pick changes the result, the edit says two things.
      const doubt = copiesInDoubt(edit, located.match, splice, (e) => renderSplice(doc, e, located.match, indent));
      if (doubt !== undefined)
        return fail(path, edit, "ambiguous-match", describe.equalLinesRemoved(path, edit, doubt));
      const next = doc.splice(splice.start, splice.end, splice.lines, splice.eols);
      const body = TextBody.ofDoc(next);
      const { start, end } = located.match;
      const changed = changedRange(edit.ops, located.match.alignment, start, end);
      const drift = edit.hint.line === undefined ? undefined : foundDrift(shifts, located.match, edit.hint.line - 1);
      recordShift(shifts, changed.start, changed.end, next.length - doc.length, drift, edit.origin.section);
      ctx.offsets.set(path, shifts);
      ctx.tree.setBody(path, body);
      // splice reports 1-based inclusive lines already; a pure deletion has end = start - 1.
      const found = { start: start + 1, end };
      const applied = new LazyApplied(path, edit, entry.body, body, located.match.strategy, splice.changed, found);
      ctx.applied.set(key, applied);
      return applied;
    }
    case "ambiguous":
      return fail(
        path,
        edit,
        "ambiguous-match",
        describe.ambiguous(path, edit, located.lines, located.strategy, located.note),
      );
    case "not-found": {
      const message = describe.notFound(path, edit, {
        nearest: located.nearest,
        note: located.note,
        alreadyApplied: isAlreadyApplied(parsedFile(doc), edit.ops),
        mismatch: edit.explicitOps,
      });
      const { startLine, lines } = located.nearest;
      const near = lines.length === 0 ? undefined : { start: startLine, end: startLine + lines.length - 1 };
      return fail(path, edit, edit.explicitOps ? "hunk-context-mismatch" : "search-not-found", message, near);
    }
  }
}
