/** Marker lines of OpenAI's apply_patch dialect; markers are compared trimmed (models pad them). */

export const BEGIN = "*** Begin Patch";
export const END = "*** End Patch";
export const END_OF_FILE = "*** End of File";

const ACTION = /^\*\*\* (Add|Update|Delete) File:\s*(.*)$/;
const MOVE = /^\*\*\* Move to:\s*(.*)$/;
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/;

export type Action = "Add" | "Update" | "Delete";

export function actionOf(line: string): { readonly action: Action; readonly path: string } | undefined {
  const m = ACTION.exec(line.trim());
  return m ? { action: m[1] as Action, path: m[2]! } : undefined;
}

export function moveTargetOf(line: string): string | undefined {
  return MOVE.exec(line.trim())?.[1];
}

/** Lines that end a file section: another header, the end markers. */
export function isControl(line: string): boolean {
  const t = line.trim();
  return t === END || t === BEGIN || t === END_OF_FILE || ACTION.test(t) || MOVE.test(t);
}

/**
 * `apply_patch <<'EOF'` (or a bare `<<EOF` line right before `*** Begin Patch`): the delimiter that will end the
 * heredoc, or undefined.
 */
export function heredocAt(lines: readonly string[], i: number): string | undefined {
  const line = lines[i]!;
  const m = HEREDOC.exec(line);
  if (!m) return undefined;
  if (/\bapply_patch\b/.test(line)) return m[2];
  let k = i + 1;
  while (k < lines.length && lines[k]!.trim() === "") k++;
  return k < lines.length && lines[k]!.trim() === BEGIN ? m[2] : undefined;
}

export const VALID_HEADERS = "'*** Add File: path', '*** Delete File: path', '*** Update File: path'";
export const VALID_PREFIXES =
  "' ' (context), '-' (removed), '+' (added), '@@' (a new chunk, optionally followed by an anchor line) or '*** End of File'";
