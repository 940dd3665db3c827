/**
 * Markdown code fences as models write them: 3+ backticks or tildes, an optional info string, sometimes indented
 * (inside list items). Closing follows CommonMark (same character, at least the opener's length, no info string)
 * but only at the opener's column (closesFence), with one model habit on top: inside a block, a fence line WITH an
 * info string opens a nested block (a README's ```bash example inside a whole-file reply), which CommonMark would
 * not do but models rely on when they do not lengthen the outer fence.
 */

export interface FenceLine {
  readonly char: "`" | "~";
  readonly length: number;
  readonly indent: number;
  /** The info string, trimmed ("" for a bare fence). */
  readonly info: string;
}

const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

const SPACE = 0x20;
const TAB = 0x09;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/**
 * Whether `line` may match FENCE: its first character after spaces and tabs is a backtick or a tilde. Almost no
 * line is a fence, and every line of a reply is asked (often more than once), so this check spares the regex. It
 * compares character codes, which is cheaper than taking one-character strings.
 */
function mayBeFence(line: string): boolean {
  let k = 0;
  let c = line.charCodeAt(0);
  while (c === SPACE || c === TAB) c = line.charCodeAt(++k);
  return c === BACKTICK || c === TILDE;
}

export function parseFenceLine(line: string): FenceLine | undefined {
  if (!mayBeFence(line)) return undefined;
  const m = FENCE.exec(line);
  if (!m) return undefined;
  const marks = m[2]!;
  const info = m[3]!.trim();
  const char = marks[0] === "~" ? "~" : "`";
  // CommonMark: a backtick fence's info string may not contain backticks (`` ```a``` `` is inline code).
  if (char === "`" && info.includes("`")) return undefined;
  return { char, length: marks.length, indent: m[1]!.length, info };
}

/**
 * True when `line` closes a block opened by `opener`: same character, at least as long, no info string, and
 * indented no deeper than the opener. CommonMark lets a closing fence be indented by up to three spaces; models
 * close at the opener's column, and a deeper fence line is the content's own: a context line of a diff of a
 * Markdown file (" ```"), a list item's code fence in a SEARCH or a whole file ("  ```"). Read the CommonMark way,
 * it closed the reply's block early and the lines after it were lost or de-indented.
 */
export function closesFence(opener: FenceLine, line: FenceLine): boolean {
  return line.char === opener.char && line.info === "" && line.length >= opener.length && line.indent <= opener.indent;
}

/** What one line does inside a block: ends it, opens or closes a nested example, or is plain content. */
export type FenceStep = "close" | "nested" | "content";

/**
 * Tracks the nested example fences inside the block opened by `opener`. A nested block may be opened by a shorter
 * fence (```` ```bash ```` inside ```` ```` ````), but such a block is content by CommonMark and cannot keep the
 * outer block open: only nested blocks at least as long as the opener (the 3-inside-3 habit) do. A bare fence
 * that neither closes the block nor ends a nested one (a stray ``` inside ````, an over-indented fence) is content.
 */
export class FenceNesting {
  /** Lengths of the open nested fences, innermost last. */
  private readonly open: number[] = [];

  constructor(private readonly opener: FenceLine) {}

  /** True inside a nested example block: its lines are documentation, not the block's own text. */
  get nested(): boolean {
    return this.open.length > 0;
  }

  /** Feeds the next body line (parsed with `parseFenceLine`; undefined when it is no fence). */
  step(fence: FenceLine | undefined): FenceStep {
    if (fence === undefined || fence.char !== this.opener.char) return "content";
    if (fence.info !== "") {
      this.open.push(fence.length);
      return "nested";
    }
    const blocking = this.open.some((length) => length >= this.opener.length);
    if (!blocking && closesFence(this.opener, fence)) return "close";
    const innermost = this.open[this.open.length - 1];
    if (innermost !== undefined && fence.length >= innermost) {
      this.open.pop();
      return "nested";
    }
    return "content";
  }
}

export interface FenceScan {
  /** Index of the closing fence line, undefined when the reply ends first. */
  readonly end: number | undefined;
  /** Index of the first body line for which `stop` returned true (the scan ends there). */
  readonly stop: number | undefined;
}

/**
 * Walks the body of the block opened at `open`, stopping at its closing fence or at the first line for which
 * `stop` holds. With `nested` false, lines inside nested fences are not offered to `stop` (a README's ```diff
 * example inside a whole-file block is content). Fence lines of the opener's kind are never offered. Linear in
 * the lines it visits.
 */
export function scanFence(
  lines: readonly string[],
  open: number,
  opener: FenceLine,
  stop: (index: number) => boolean,
  nested = true,
): FenceScan {
  const nesting = new FenceNesting(opener);
  for (let j = open + 1; j < lines.length; j++) {
    const fence = parseFenceLine(lines[j]!);
    const inside = nesting.nested;
    const step = nesting.step(fence);
    if (step === "close") return { end: j, stop: undefined };
    const ownKind = fence !== undefined && fence.char === opener.char;
    if (step === "content" && !ownKind && (!inside || nested) && stop(j)) return { end: undefined, stop: j };
  }
  return { end: undefined, stop: undefined };
}

/** `line` without up to `count` leading spaces or tabs. */
function stripIndent(line: string, count: number): string {
  let k = 0;
  while (k < count && (line[k] === " " || line[k] === "\t")) k++;
  return k === 0 ? line : line.slice(k);
}

/**
 * De-indents fenced blocks opened with indentation (inside list items), in place: as in CommonMark, each line of
 * the block loses up to the opener's indentation, so a diff's context lines or a file's content read as written
 * at column 0. The fence pairs are found on the de-indented lines, as the parsers will see them. Line count and
 * order are kept, so line numbers in messages stay those of the reply. A block that is never closed is
 * de-indented to the end of the reply (a list item cut short). Linear in the reply's lines.
 */
export function dedentFences(lines: string[]): void {
  let i = 0;
  while (i < lines.length) {
    const opener = parseFenceLine(lines[i]!);
    if (opener === undefined) {
      i++;
      continue;
    }
    const indent = opener.indent;
    lines[i] = stripIndent(lines[i]!, indent);
    const nesting = new FenceNesting({ ...opener, indent: 0 });
    let j = i + 1;
    for (; j < lines.length; j++) {
      // Most blocks are not indented: their lines are left alone rather than copied.
      if (indent > 0) lines[j] = stripIndent(lines[j]!, indent);
      if (nesting.step(parseFenceLine(lines[j]!)) === "close") break;
    }
    // Every line is visited once: after a fence that is never closed, no other fence is looked for.
    i = j + 1;
  }
}

const SHELL_INFOS = new Set([
  "bash",
  "sh",
  "shell",
  "console",
  "zsh",
  "fish",
  "powershell",
  "pwsh",
  "ps1",
  "cmd",
  "bat",
  "batch",
  "shell-session",
  "shellsession",
  "terminal",
]);

/** The language word of an info string (`python` in ```` ```python title="a.py" ````), lower-cased. */
export const infoLanguage = (info: string): string => (info.split(/\s+/)[0] ?? "").toLowerCase();

export const isShellInfo = (info: string): boolean => SHELL_INFOS.has(infoLanguage(info));

const DIFF_INFOS = new Set(["diff", "patch", "udiff"]);

export const isDiffInfo = (info: string): boolean => DIFF_INFOS.has(infoLanguage(info));

/** The lines of a text that stand outside its fenced blocks (a fence never closed hides the rest). */
export function linesOutsideFences(text: string): string[] {
  const outside: string[] = [];
  let open: FenceLine | undefined;
  for (const line of text.split(/\r?\n/)) {
    const fence = parseFenceLine(line);
    if (open === undefined) {
      if (fence === undefined) outside.push(line);
      else open = fence;
    } else if (fence !== undefined && closesFence(open, fence)) open = undefined;
  }
  return outside;
}
