/**
 * The shape of a scenario case as the generator builds it, and small text helpers that keep the expected trees
 * honest: every change to a file is a replacement of text that must occur exactly once.
 */
import { readFileSync } from "node:fs";

export { CATEGORIES, type Category } from "../categories.js";
import type { Category } from "../categories.js";
export type CaseFormat = "editblock" | "udiff" | "patch" | "whole" | "mixed";

/** A file's content, or a symbolic link planted in the tree (its target is written verbatim). */
export type Entry = string | { readonly symlink: string };
export type Tree = Readonly<Record<string, Entry>>;

export interface CaseSpec {
  readonly id: string;
  readonly category: Category;
  readonly format: CaseFormat;
  readonly expect: "apply" | "refuse";
  readonly reasons?: readonly string[];
  readonly hint?: readonly string[];
  readonly note: string;
  /** Absolute paths outside the tree that must not exist after the reply (path-safety canaries). */
  readonly outside?: readonly string[];
  readonly before: Tree;
  readonly after?: Tree;
  readonly reply: string;
}

const SOURCES = new URL("./sources/", import.meta.url);

/** A source text from tools/sources (LF line endings, final newline). */
export const src = (name: string): string => readFileSync(new URL(`${name}.txt`, SOURCES), "utf8");

/** Replaces text that must occur exactly once: a case whose edit is ambiguous to its author is a broken case. */
export function swap(text: string, from: string, to: string): string {
  const first = text.indexOf(from);
  if (first === -1) throw new Error(`swap: text not found:\n${from}`);
  if (text.indexOf(from, first + 1) !== -1) throw new Error(`swap: text occurs more than once:\n${from}`);
  return text.slice(0, first) + to + text.slice(first + from.length);
}

/** Applies several swaps in order. */
export const swaps = (text: string, pairs: readonly (readonly [string, string])[]): string =>
  pairs.reduce((acc, [from, to]) => swap(acc, from, to), text);

export const crlf = (text: string): string => text.replace(/\r?\n/g, "\r\n");
export const bom = (text: string): string => `\uFEFF${text}`;
export const noFinalNewline = (text: string): string => text.replace(/\r?\n$/, "");

/** The lines [from, to] (1-based, inclusive) of a text, joined with LF, without a final newline. */
export function lines(text: string, from: number, to: number): string {
  return text
    .split("\n")
    .slice(from - 1, to)
    .join("\n");
}

/** Gives the listed 1-based lines of an LF text a CRLF ending (a file with mixed endings). */
export function crlfAt(text: string, lineNumbers: readonly number[]): string {
  const parts = text.split("\n");
  for (const n of lineNumbers) {
    if (n < 1 || n >= parts.length) throw new Error(`crlfAt: no line ${n}`);
    parts[n - 1] = `${parts[n - 1]!}\r`;
  }
  return parts.join("\n");
}

/** Gives the listed 1-based lines of a CRLF text a bare LF ending. */
export function lfAt(text: string, lineNumbers: readonly number[]): string {
  const parts = text.split("\r\n");
  const out: string[] = [];
  parts.forEach((part, i) => {
    out.push(part);
    if (i < parts.length - 1) out.push(lineNumbers.includes(i + 1) ? "\n" : "\r\n");
  });
  return out.join("");
}

/** Re-indents a block: every line's leading whitespace is rewritten by `map`. */
export function reindent(text: string, map: (ws: string) => string): string {
  return text
    .split("\n")
    .map((line) => {
      const ws = /^[ \t]*/.exec(line)![0];
      return line.trim() === "" ? line : map(ws) + line.slice(ws.length);
    })
    .join("\n");
}

/** Tabs to `width` spaces per tab (how a model often writes a tab-indented file). */
export const tabsToSpaces = (text: string, width = 4): string =>
  reindent(text, (ws) => ws.replace(/\t/g, " ".repeat(width)));

/** Shifts every non-blank line by `delta` spaces (negative removes). */
export const shift = (text: string, delta: number): string =>
  reindent(text, (ws) => (delta >= 0 ? " ".repeat(delta) + ws : ws.slice(Math.min(-delta, ws.length))));

/** Rescales space indentation from one width to another (2 ↔ 4). */
export const rescale = (text: string, fromWidth: number, toWidth: number): string =>
  reindent(text, (ws) => " ".repeat((ws.length / fromWidth) * toWidth));

/** Leading groups of four spaces become tabs (to write tab-indented snippets readably). */
export const spacesToTabs = (text: string): string => reindent(text, (ws) => ws.replace(/ {4}/g, "\t"));

/**
 * Rewrites the lines whose text (without ending) equals one of `contents`; used to dress a few lines with
 * trailing spaces or an odd ending in both before/ and after/. Lines the edit changed simply no longer match.
 */
export function onLines(text: string, contents: readonly string[], fn: (line: string) => string): string {
  return text
    .split("\n")
    .map((line) => (contents.includes(line.replace(/\r$/, "")) ? fn(line) : line))
    .join("\n");
}

/** Appends `suffix` (trailing spaces or tabs) to the lines with the given texts. */
export const trailing =
  (contents: readonly string[], suffix = "  ") =>
  (text: string): string =>
    onLines(text, contents, (line) => line + suffix);

/** Gives the lines with the given texts a CRLF ending in an LF file. */
export const crlfOn =
  (contents: readonly string[]) =>
  (text: string): string =>
    onLines(text, contents, (line) => `${line}\r`);

/** Gives the lines with the given texts a bare LF ending in a file that is otherwise CRLF. */
export const lfOnInCrlf =
  (contents: readonly string[]) =>
  (text: string): string =>
    text
      .split("\n")
      .map((line, i, all) => (i === all.length - 1 || contents.includes(line) ? line : `${line}\r`))
      .join("\n");

/** What a chat UI or a model does to typography: curly quotes, dashes, ellipsis and odd spaces made ASCII. */
export const asciiPunct = (text: string): string =>
  text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[\u00A0\u202F]/g, " ");

/** The 1-based line where the nth (1-based) occurrence of `snippet` starts. */
export function lineOf(text: string, snippet: string, nth = 1): number {
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = text.indexOf(snippet, at + 1);
    if (at === -1) throw new Error(`lineOf: occurrence ${nth} of ${snippet} not found`);
  }
  return text.slice(0, at).split("\n").length;
}
