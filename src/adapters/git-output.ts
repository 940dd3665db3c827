/** Pure readers for git's machine output (the `-z` forms, so no path quoting or newline surprises). */

/** `git ls-files -z`: NUL-terminated paths. */
export function parseNulList(output: string): string[] {
  return output.split("\0").filter((entry) => entry !== "");
}

/**
 * `git status --porcelain=v1 -z`: entries `XY path`; renames and copies are followed by their source path, which
 * is reported too, since both sides of a rename changed.
 */
export function parseStatusZ(output: string): string[] {
  const fields = output.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry === undefined || entry.length < 4) continue;
    const code = entry.slice(0, 2);
    paths.push(entry.slice(3));
    if (code.includes("R") || code.includes("C")) {
      const source = fields[i + 1];
      if (source !== undefined && source !== "") paths.push(source);
      i++;
    }
  }
  return [...new Set(paths)];
}

/** `git grep -c -z`: `path\0count\n` per file. */
export function parseGrepCountZ(output: string): Array<readonly [string, number]> {
  const hits: Array<readonly [string, number]> = [];
  for (const line of output.split("\n")) {
    const nul = line.lastIndexOf("\0");
    if (nul <= 0) continue;
    const count = Number(line.slice(nul + 1));
    if (Number.isFinite(count)) hits.push([line.slice(0, nul), count]);
  }
  return hits;
}

export interface LogEntry {
  readonly sha: string;
  readonly subject: string;
  readonly body: string;
  readonly authorName: string;
}

/** Field and record separators for `git log --format`: control characters no commit message carries. */
export const LOG_FORMAT = "%H%x1f%an%x1f%s%x1f%b%x1e";

export function parseLog(output: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const record of output.split("\x1e")) {
    const fields = record.replace(/^\n+/, "").split("\x1f");
    const [sha, authorName, subject, body] = fields;
    if (sha === undefined || sha === "" || authorName === undefined || subject === undefined) continue;
    entries.push({ sha, authorName, subject, body: (body ?? "").replace(/\n+$/, "") });
  }
  return entries;
}

/**
 * A refused push, read from git's stderr. "stale info" is the lease failing; "fetch first" and "non-fast-forward"
 * mean the remote has commits we do not: all three say the branch moved under us.
 */
export function classifyPushFailure(stderr: string): "rejected-stale" | "error" {
  return /\[rejected\][^\n]*\((?:stale info|fetch first|non-fast-forward)\)/.test(stderr) ? "rejected-stale" : "error";
}
