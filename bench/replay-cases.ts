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

/** One hunk as SEARCH and REPLACE lines, with the pairs of indices that hold the same context line on each side. */
interface Block {
  search: string[];
  replace: string[];
  context: [number, number][];
}

function blocksOf(diff: string): Block[] {
  const blocks: Block[] = [];
  let block: Block | undefined;
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    if (line.startsWith("@@")) blocks.push((block = { search: [], replace: [], context: [] }));
    else if (block !== undefined && !line.startsWith("\\")) {
      const text = line.slice(1);
      if (line.startsWith("-")) block.search.push(text);
      else if (line.startsWith("+")) block.replace.push(text);
      else {
        block.context.push([block.search.length, block.replace.length]);
        block.search.push(text);
        block.replace.push(text);
      }
    }
  }
  return blocks;
}

/**
 * Drifts a model makes while copying, each applied to every block of a reply (none: as the commit has it): each
 * leaves the model's intent readable, so a result unlike the commit is a wrong apply. (Faults that lose it, a
 * context line left out of both sides, are the drift harness's.)
 */
export const MODEL_FAULTS = [
  "none",
  "typo",
  "indent",
  "tabs",
  "trailing",
  "dropped-first",
  "curly-quotes",
  "typo-in-removed",
  "cut-line",
  "elided",
  "crlf",
  "swapped",
  "joined",
] as const;
export type ModelFault = (typeof MODEL_FAULTS)[number];

const swapIndentation = (line: string): string =>
  line.startsWith("\t")
    ? line.replace(/^\t+/, (t) => "    ".repeat(t.length))
    : line.replace(/^( {4})+/, (s) => "\t".repeat(s.length / 4));

/** The line with its middle character mistyped. */
function mistyped(line: string): string {
  const at = Math.floor(line.length / 2);
  return `${line.slice(0, at)}${line[at] === "x" ? "y" : "x"}${line.slice(at + 1)}`;
}

/** The block with `f` applied to each context line, the same on both sides (given its SEARCH index). */
function mapContext(block: Block, f: (line: string, index: number) => string): Block {
  const search = [...block.search];
  const replace = [...block.replace];
  for (const [i, j] of block.context) {
    search[i] = f(block.search[i]!, i);
    replace[j] = search[i];
  }
  return { ...block, search, replace };
}

/** "The lines here stay as they are", in the comment syntax of the file's language. */
function elisionComment(path: string): string {
  if (/\.(py|rb|sh|ya?ml|toml)$/.test(path)) return "# ... existing code ...";
  if (/\.(md|html)$/.test(path)) return "<!-- ... existing content ... -->";
  if (/\.(rst|txt|json)$/.test(path)) return "...";
  return "// ... existing code ...";
}

/**
 * The first run of three or more unchanged lines between two changes of the block given as one elision comment
 * on both sides, as a model shortens what it quotes.
 */
function elided(block: Block, path: string): Block {
  const changed = block.search.map((_, i) => !block.context.some(([c]) => c === i));
  const firstChange = changed.indexOf(true);
  const lastChange = changed.lastIndexOf(true);
  const inner = block.context.filter(([i]) => i > firstChange && i < lastChange);
  for (let k = 0; k < inner.length; k++) {
    let e = k;
    while (e + 1 < inner.length && inner[e + 1]![0] === inner[e]![0] + 1 && inner[e + 1]![1] === inner[e]![1] + 1) e++;
    if (e - k + 1 < 3) {
      k = e;
      continue;
    }
    const [i, j] = inner[k]!;
    const count = e - k + 1;
    const indent = /^\s*/.exec(block.search[i]!)![0];
    const marker = `${indent}${elisionComment(path)}`;
    const search = [...block.search.slice(0, i), marker, ...block.search.slice(i + count)];
    const replace = [...block.replace.slice(0, j), marker, ...block.replace.slice(j + count)];
    return { search, replace, context: [] };
  }
  return block;
}

/** The first two unchanged lines in a row on both sides, neither blank (and, for `short`, the second short). */
function adjacentContext(block: Block, short: boolean): [number, number] | undefined {
  return block.context.find(([i, j]) => {
    const next = block.context.find(([a, b]) => a === i + 1 && b === j + 1);
    const [first, second] = [block.search[i]!.trim(), block.search[i + 1]?.trim() ?? ""];
    return next !== undefined && first !== "" && second !== "" && first !== second && (!short || second.length <= 20);
  });
}

function withFault(block: Block, fault: ModelFault, path: string): Block {
  const both = (f: (line: string) => string): Block => ({
    ...block,
    search: block.search.map((l) => (l.trim() === "" ? l : f(l))),
    replace: block.replace.map((l) => (l.trim() === "" ? l : f(l))),
  });
  if (fault === "indent") return both((l) => `    ${l}`);
  if (fault === "tabs") return both(swapIndentation);
  if (fault === "trailing") return { ...block, search: block.search.map((l) => (l.trim() === "" ? l : `${l}  `)) };
  if (fault === "dropped-first") {
    const first = block.context[0];
    if (first?.[0] !== 0 || first[1] !== 0 || block.search.length < 3) return block;
    return { search: block.search.slice(1), replace: block.replace.slice(1), context: [] };
  }
  if (fault === "curly-quotes") {
    // Context lines with typographic quotes, as a chat model renders them, on both sides.
    const curl = (line: string): string =>
      line.replace(/'([^']*)'/g, "\u2018$1\u2019").replace(/"([^"]*)"/g, "\u201c$1\u201d");
    return mapContext(block, curl);
  }
  if (fault === "cut-line") {
    // The first long context line cut short, as a model abbreviates it, on both sides.
    const long = block.context.find(([i]) => block.search[i]!.trim().length > 40);
    if (long === undefined) return block;
    const line = block.search[long[0]]!;
    return mapContext(block, (l, i) => (i === long[0] ? line.slice(0, Math.floor(line.length * 0.7)) : l));
  }
  if (fault === "typo-in-removed") {
    const removed = block.search.findIndex((l, i) => l.trim().length > 8 && !block.context.some(([c]) => c === i));
    if (removed < 0) return block;
    const search = [...block.search];
    search[removed] = mistyped(search[removed]!);
    return { ...block, search };
  }
  if (fault === "elided") return elided(block, path);
  if (fault === "swapped") {
    // Two unchanged lines in a row written in the opposite order, on both sides.
    const at = adjacentContext(block, false);
    if (at === undefined) return block;
    const [i, j] = at;
    const search = [...block.search];
    const replace = [...block.replace];
    [search[i], search[i + 1]] = [block.search[i + 1]!, block.search[i]!];
    [replace[j], replace[j + 1]] = [block.replace[j + 1]!, block.replace[j]!];
    return { search, replace, context: [] };
  }
  if (fault === "joined") {
    // An unchanged line and the short one after it written as one line (`foo(); });`), on both sides.
    const at = adjacentContext(block, true);
    if (at === undefined) return block;
    const [i, j] = at;
    const line = `${block.search[i]!} ${block.search[i + 1]!.trim()}`;
    const search = [...block.search.slice(0, i), line, ...block.search.slice(i + 2)];
    const replace = [...block.replace.slice(0, j), line, ...block.replace.slice(j + 2)];
    return { search, replace, context: [] };
  }
  if (fault === "typo") {
    // The longest context line, mistyped on both sides (the model copied its own wrong line).
    const longest = block.context.reduce<[number, number] | undefined>(
      (best, pair) =>
        best === undefined || block.search[pair[0]]!.length > block.search[best[0]]!.length ? pair : best,
      undefined,
    );
    if (longest === undefined || block.search[longest[0]]!.trim().length < 9) return block;
    const typo = mistyped(block.search[longest[0]]!);
    const search = [...block.search];
    const replace = [...block.replace];
    search[longest[0]] = typo;
    replace[longest[1]] = typo;
    return { ...block, search, replace };
  }
  return block;
}

/**
 * A unified diff's hunks as SEARCH/REPLACE blocks under `path` (the old side, context included, against the new
 * one), each with `fault` if given. A change to the final newline cannot be said this way: the blocks keep the
 * file's own.
 */
export function searchReplaceOf(path: string, diff: string, fault: ModelFault = "none"): string {
  const blocks = blocksOf(diff).map((block) => {
    const { search, replace } = withFault(block, fault, path);
    return [path, "```", "<<<<<<< SEARCH", ...search, "=======", ...replace, ">>>>>>> REPLACE", "```"].join("\n");
  });
  const reply = `${blocks.join("\n\n")}\n`;
  // A reply copied through a Windows clipboard.
  return fault === "crlf" ? reply.replace(/\n/g, "\r\n") : reply;
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
