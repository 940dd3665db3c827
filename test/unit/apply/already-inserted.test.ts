import { describe, expect, it } from "vitest";
import { alreadyInserted } from "../../../src/apply/already-inserted.js";
import type { LineOp, ReplaceEdit } from "../../../src/core/edit.js";
import type { Match } from "../../../src/matcher/types.js";

const edit = (ops: LineOp[]): ReplaceEdit => ({
  kind: "replace",
  path: "src/a.ts",
  ops,
  hint: {},
  explicitOps: false,
  origin: { format: "editblock", line: 1 },
});

/** The match of the edit's quoted lines at `start`, one file line each. */
function at(ops: readonly LineOp[], start: number): Match {
  const alignment = ops.flatMap((op, index) => (op.op === "add" ? [] : [{ op: index, start: 0, end: 0 }]));
  return {
    start,
    end: start + alignment.length,
    strategy: "exact",
    alignment: alignment.map((a, k) => ({ ...a, start: start + k, end: start + k + 1 })),
  };
}

const file = [
  "export function load(path: string) {",
  "  if (!existsSync(path)) throw new Error(`no such file: ${path}`);",
  "  return readFileSync(path, 'utf8');",
  "}",
];
const lineAt = (i: number): string => file[i]!;
const guard = "  if (!existsSync(path)) throw new Error(`no such file: ${path}`);";

describe("an insertion made already", () => {
  it("is the added lines standing after the quoted ones, or before them (indentation aside)", () => {
    const after: LineOp[] = [
      { op: "context", text: "export function load(path: string) {" },
      { op: "add", text: guard.trim() },
    ];
    expect(alreadyInserted(edit(after), at(after, 0), file.length, lineAt)).toEqual({ start: 2, end: 2 });
    const before: LineOp[] = [
      { op: "add", text: guard },
      { op: "context", text: "  return readFileSync(path, 'utf8');" },
    ];
    expect(alreadyInserted(edit(before), at(before, 2), file.length, lineAt)).toEqual({ start: 2, end: 2 });
  });

  it("is not a short addition, a change, or lines the file does not have there", () => {
    const brace: LineOp[] = [
      { op: "context", text: "  return readFileSync(path, 'utf8');" },
      { op: "add", text: "}" },
    ];
    expect(alreadyInserted(edit(brace), at(brace, 2), file.length, lineAt)).toBeUndefined();
    const change: LineOp[] = [
      { op: "remove", text: "export function load(path: string) {" },
      { op: "add", text: "export function load(path: string) {" },
      { op: "add", text: guard },
    ];
    expect(alreadyInserted(edit(change), at(change, 0), file.length, lineAt)).toBeUndefined();
    const elsewhere: LineOp[] = [
      { op: "context", text: "  return readFileSync(path, 'utf8');" },
      { op: "add", text: guard },
    ];
    expect(alreadyInserted(edit(elsewhere), at(elsewhere, 2), file.length, lineAt)).toBeUndefined();
  });
});
