import { expect } from "vitest";
import type { Edit, ParsedItem, ParseProblem } from "../../../src/core/edit.js";
import { parseReply, type ParseOptions } from "../../../src/formats/registry.js";

/** Joins lines into a reply (no final newline unless the last line is ""). */
export const reply = (...lines: string[]): string => lines.join("\n");

export const edits = (items: readonly ParsedItem[]): Edit[] =>
  items.flatMap((it) => (it.type === "edit" ? [it.edit] : []));

export const problems = (items: readonly ParsedItem[]): ParseProblem[] =>
  items.flatMap((it) => (it.type === "problem" ? [it.problem] : []));

/** Parses and asserts the reply yields exactly one edit and no problem. */
export function parseOne(text: string, options?: ParseOptions): Edit {
  const items = parseReply(text, options);
  expect(problems(items)).toEqual([]);
  expect(items).toHaveLength(1);
  return edits(items)[0]!;
}

/** Parses and asserts the reply yields exactly one problem and nothing else. */
export function parseProblem(text: string, options?: ParseOptions): ParseProblem {
  const items = parseReply(text, options);
  expect(edits(items)).toEqual([]);
  expect(items).toHaveLength(1);
  return problems(items)[0]!;
}

/** Narrows an edit to a kind, failing the test otherwise. */
export function as<K extends Edit["kind"]>(edit: Edit | undefined, kind: K): Extract<Edit, { kind: K }> {
  expect(edit?.kind).toBe(kind);
  return edit as Extract<Edit, { kind: K }>;
}

/** One-letter op listing ("c:x", "-:y", "+:z", "e:...") for compact assertions. */
export const opList = (edit: Edit): string[] =>
  as(edit, "replace").ops.map((o) => `${{ context: "c", remove: "-", add: "+", elision: "e" }[o.op]}:${o.text}`);

/** The lines of a fenced SEARCH/REPLACE block under a path line. */
export const srBlock = (path: string, search: string[], replace: string[], fence = "```python"): string[] => [
  path,
  fence,
  "<<<<<<< SEARCH",
  ...search,
  "=======",
  ...replace,
  ">>>>>>> REPLACE",
  "```",
];
