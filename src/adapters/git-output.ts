/** Pure readers for git's machine output (the `-z` forms, so no path quoting or newline surprises). */

/** `git ls-files -z`: NUL-terminated paths. */
export function parseNulList(output: string): string[] {
  return output.split("\0").filter((entry) => entry !== "");
}

export interface StatusEntry {
  /** The two-letter code: `??` untracked, ` M` modified in the tree, `R ` renamed in the index, … */
  readonly code: string;
  readonly path: string;
  /** The path a rename or copy came from. */
  readonly source?: string;
}

/** `git status --porcelain=v1 -z`: entries `XY path`; a rename or copy is followed by its source path. */
export function parseStatusEntries(output: string): StatusEntry[] {
  const fields = output.split("\0");
  const entries: StatusEntry[] = [];
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i];
    if (entry === undefined || entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const path = entry.slice(3);
    if (code.includes("R") || code.includes("C")) {
      const source = fields[++i];
      entries.push(source === undefined || source === "" ? { code, path } : { code, path, source });
    } else entries.push({ code, path });
  }
  return entries;
}

/** The paths `git status` names, both sides of a rename, since both changed. */
export function parseStatusZ(output: string): string[] {
  return [
    ...new Set(parseStatusEntries(output).flatMap((e) => (e.source === undefined ? [e.path] : [e.path, e.source]))),
  ];
}

/** `git grep -o -i -z`: `path\0matched text\n` per match, counted per file and lower-cased term. */
export function parseTermMatches(output: string, terms: ReadonlySet<string>): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const line of output.split("\n")) {
    const nul = line.indexOf("\0");
    if (nul <= 0) continue;
    const term = line.slice(nul + 1).toLowerCase();
    if (!terms.has(term)) continue;
    const path = line.slice(0, nul);
    let perFile = counts.get(path);
    if (perFile === undefined) counts.set(path, (perFile = new Map<string, number>()));
    perFile.set(term, (perFile.get(term) ?? 0) + 1);
  }
  return counts;
}

/** `git grep -n -z`: `path\0line\0text` per matching line. */
export function parseGrepLines(output: string): Array<{ path: string; line: number; text: string }> {
  const found: Array<{ path: string; line: number; text: string }> = [];
  for (const entry of output.split("\n")) {
    const [path, line, ...rest] = entry.split("\0");
    if (path === undefined || path === "" || line === undefined || !/^\d+$/.test(line)) continue;
    found.push({ path, line: Number(line), text: rest.join("\0") });
  }
  return found;
}

/** `git ls-tree -r -l -z`: `mode type sha size\tpath` per entry; blobs' sizes by path. */
export function parseTreeSizes(output: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of output.split("\0")) {
    const match = /^\d+ blob [0-9a-f]+\s+(\d+)\t(.+)$/s.exec(entry);
    if (match?.[1] !== undefined && match[2] !== undefined) sizes.set(match[2], Number(match[1]));
  }
  return sizes;
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
