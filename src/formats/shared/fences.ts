/**
 * Markdown code fences as models write them: 3+ backticks or tildes, an optional info string, sometimes indented
 * (inside list items). Closing is nesting-aware: a fence line with an info string inside a block opens a nested
 * block (a README's ```bash example inside a whole-file reply), which CommonMark would not do but models rely on.
 */

export interface FenceLine {
  readonly char: "`" | "~";
  readonly length: number;
  readonly indent: number;
  /** The info string, trimmed ("" for a bare fence). */
  readonly info: string;
}

const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

export function parseFenceLine(line: string): FenceLine | undefined {
  const m = FENCE.exec(line);
  if (!m) return undefined;
  const marks = m[2]!;
  const info = m[3]!.trim();
  const char = marks[0] === "~" ? "~" : "`";
  // CommonMark: a backtick fence's info string may not contain backticks (`` ```a``` `` is inline code).
  if (char === "`" && info.includes("`")) return undefined;
  return { char, length: marks.length, indent: m[1]!.length, info };
}

/** True when `line` closes a block opened by `opener`: same character, at least as long, no info string. */
export function closesFence(opener: FenceLine, line: FenceLine): boolean {
  return (
    line.char === opener.char &&
    line.info === "" &&
    line.length >= opener.length &&
    line.indent <= Math.max(opener.indent, 3)
  );
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
 * example inside a whole-file block is content). Linear in the lines it visits.
 */
export function scanFence(
  lines: readonly string[],
  open: number,
  opener: FenceLine,
  stop: (index: number) => boolean,
  nested = true,
): FenceScan {
  let depth = 0;
  for (let j = open + 1; j < lines.length; j++) {
    const line = lines[j]!;
    const fence = parseFenceLine(line);
    if (fence === undefined || fence.char !== opener.char) {
      if ((depth === 0 || nested) && stop(j)) return { end: undefined, stop: j };
      continue;
    }
    if (depth === 0 && closesFence(opener, fence)) return { end: j, stop: undefined };
    if (fence.info === "" && depth > 0) depth--;
    else depth++;
  }
  return { end: undefined, stop: undefined };
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
