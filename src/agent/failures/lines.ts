/** Helpers the runner formats share (pure): colours off, noise out, blocks bounded, stack frames trimmed. */

// eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export const stripAnsi = (text: string): string => text.replace(ANSI, "");

/** How a test file that could not be loaded is named among the failures. */
export const failedToRun = (file: string): string => `${file} (failed to run)`;

/** A block's bounds: enough for an assertion with a diff and a few frames. */
export const MAX_BLOCK_LINES = 30;
export const MAX_BLOCK_CHARS = 1500;
const MAX_FRAMES = 3;

/** Frames of the runtime, the test framework or the standard library: not where the bug is. */
const FOREIGN =
  /node_modules|node:|\binternal\/|site-packages|\/rustc\/|\/usr\/lib\/|\/lib\/python\d|\.rustup\/|\/go\/src\/|^runtime\//;

/**
 * A stack frame of JavaScript (`at fn (file:1:2)`, or without `at` as node:test's TAP writes them), Python
 * (`File "x.py", line 3`, pytest's short `x.py:3: in fn`), Rust (`3: symbol`, `at ./src/lib.rs:1:2`) or Go
 * (`x.go:12 +0x1d`).
 */
const FRAME =
  /^\s*(?:at\s|File "|\d+: \S)|^\s*(?:async\s+|new\s+)?[\w$.<>[\]]+(?:\s[\w$.<>[\]]+)*\s+\([^()]*\)\s*$|^\s*\S+:\d+(?::\d+)?\s*$|^\S+\.py:\d+: in \S+$|\.go:\d+ \+0x/;

/** The file a frame points into: the path of `path:line`, or of Python's `"path", line N`. */
const LOCATION = /([^\s()"']+?):\d+|File "([^"]+)", line \d+/;

function frameLocation(line: string): string | undefined {
  const match = LOCATION.exec(line);
  return match === null ? undefined : (match[1] ?? match[2]);
}

/** The file a stack frame points into, when the line is a frame and the file is the repository's own. */
export function repositoryFrame(line: string): string | undefined {
  if (!FRAME.test(line)) return undefined;
  const location = frameLocation(line);
  return location === undefined || FOREIGN.test(location) ? undefined : location;
}

/**
 * Where a coverage report starts: istanbul's text table (c8, nyc, Jest, Vitest: `----|----` then `File | % Stmts`)
 * or its text summary (`=== Coverage summary ===`). The report follows the last failure of the run, and a runner's
 * parser that reads a failure up to the next one (Mocha's) would otherwise take it as part of that failure.
 */
const COVERAGE_REPORT = /^-+(?:\|-+){4,}\|?$|^File\s+\|\s*% Stmts|^=+ Coverage summary =+$/;

/**
 * The block's lines without the noise: frames outside the repository (and all but the first few inside it), code
 * frames with a gutter (`> 12 | …`), timing lines; nothing from a coverage report on; then trimmed to the bounds.
 */
export function tidyBlock(lines: readonly string[]): string {
  const out: string[] = [];
  let frames = 0;
  // The indentation of a frame left out: the deeper lines right under it are its source line and carets.
  let dropped: number | undefined;
  for (const raw of lines) {
    if (COVERAGE_REPORT.test(raw.trim())) break;
    const line = raw.replace(/\s+$/, "");
    if (/^\s*>?\s*\d+\s*\|/.test(line) || /^\s*\|\s*\^/.test(line)) continue;
    if (/^\s*duration_ms:/.test(line)) continue;
    if (FRAME.test(line)) {
      // Only frames in the repository help, and only the first few of them.
      if (repositoryFrame(line) === undefined || frames >= MAX_FRAMES) {
        dropped = indentOf(line);
        continue;
      }
      frames++;
    } else if (dropped !== undefined && line.trim() !== "" && indentOf(line) > dropped) continue;
    dropped = undefined;
    out.push(line);
  }
  while (out.length > 0 && out[0]!.trim() === "") out.shift();
  while (out.length > 0 && out.at(-1)!.trim() === "") out.pop();
  const collapsed = out.filter((line, i) => !(line.trim() === "" && out[i - 1]?.trim() === ""));
  const kept = collapsed.slice(0, MAX_BLOCK_LINES);
  let text = kept.join("\n");
  if (collapsed.length > kept.length) text += `\n… (${String(collapsed.length - kept.length)} more lines)`;
  return text.length > MAX_BLOCK_CHARS ? `${text.slice(0, MAX_BLOCK_CHARS)}…` : text;
}

export const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Names made unique where a runner's names repeat: a name that occurs more than once gets its place among its
 * namesakes (`mean › should be equal #2`), the same in every run of the same tests. Undefined stays undefined (a
 * result that is named otherwise), and counts for nothing.
 */
export function withPlaces(names: readonly (string | undefined)[]): (string | undefined)[] {
  const counts = new Map<string, number>();
  for (const name of names) if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((name) => {
    if (name === undefined) return undefined;
    const place = (seen.get(name) ?? 0) + 1;
    seen.set(name, place);
    return counts.get(name)! > 1 ? `${name} #${String(place)}` : name;
  });
}
