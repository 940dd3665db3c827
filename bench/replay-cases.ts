/**
 * Replay cases: real commits of real repositories, their change applied to the file as it was some commits
 * earlier (a backport, or a model that saw a newer version). Pure parts only: which commits qualify, and the
 * SEARCH/REPLACE blocks and the apply_patch envelope a commit's hunks read as. The git I/O is in replay.ts.
 */

/** At most this many changed lines: a focused fix, the size of change a model sends. */
export const MAX_CHANGED_LINES = 40;

/** Text files a model edits: source, documentation, configuration. */
const TEXT_FILE = /\.(js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|c|h|cc|cpp|md|rst|txt|json|ya?ml|toml|sh|html|css)$/;

export interface ReplayCommit {
  readonly sha: string;
  readonly path: string;
}

/**
 * The commits of `git log --no-merges --format=%H --numstat` output that change exactly one text file by at most
 * MAX_CHANGED_LINES lines (renames and binary files left out), newest first.
 */
export function replayCommits(log: string): ReplayCommit[] {
  const commits: ReplayCommit[] = [];
  let sha: string | undefined;
  let files: string[][] = [];
  const flush = (): void => {
    if (sha === undefined || files.length !== 1) return;
    const [added = "", removed = "", path = ""] = files[0]!;
    const changed = Number(added) + Number(removed);
    if (changed > 0 && changed <= MAX_CHANGED_LINES && TEXT_FILE.test(path) && !path.includes("=>")) {
      commits.push({ sha, path });
    }
  };
  for (const line of log.split("\n")) {
    if (/^[0-9a-f]{40}$/.test(line)) {
      flush();
      sha = line;
      files = [];
    } else if (line.includes("\t")) files.push(line.split("\t"));
  }
  flush();
  return commits;
}

/**
 * A unified diff's hunks as SEARCH/REPLACE blocks under `path` (the old side, context included, against the new
 * one). A change to the final newline cannot be said this way: the blocks keep the file's own.
 */
export function searchReplaceOf(path: string, diff: string): string {
  const blocks: string[] = [];
  let search: string[] | undefined;
  let replace: string[] = [];
  const flush = (): void => {
    if (search === undefined) return;
    blocks.push([path, "```", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE", "```"].join("\n"));
  };
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    if (line.startsWith("@@")) {
      flush();
      search = [];
      replace = [];
    } else if (search !== undefined && !line.startsWith("\\")) {
      const text = line.slice(1);
      if (line.startsWith("-")) search.push(text);
      else if (line.startsWith("+")) replace.push(text);
      else {
        search.push(text);
        replace.push(text);
      }
    }
  }
  flush();
  return `${blocks.join("\n\n")}\n`;
}

/**
 * A unified diff's hunks as an apply_patch envelope for `path`: each hunk a bare `@@` chunk (no line numbers, as
 * that format has none). A change to the final newline cannot be said this way either.
 */
export function applyPatchOf(path: string, diff: string): string {
  const lines = ["*** Begin Patch", `*** Update File: ${path}`];
  let inHunk = false;
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    if (line.startsWith("@@")) {
      lines.push("@@");
      inHunk = true;
    } else if (inHunk && !line.startsWith("\\")) lines.push(line === "" ? " " : line);
  }
  lines.push("*** End Patch");
  return `\`\`\`\n${lines.join("\n")}\n\`\`\`\n`;
}
