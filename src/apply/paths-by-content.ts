/**
 * A path that names no file but several known ones (`request.js` for `lib/request.js` and `test/request.js`),
 * read as the one whose lines the edits quote (pure): where every edit of that path is found in exactly one of
 * them, on a line rung, that file is the one the model copied them from. Where the lines are in several (or only
 * a similarity search finds them), nothing moves and the failure names the files (resolve-paths.ts). As there, only
 * edits of lines an existing file has move so.
 */
import type { ParsedItem } from "../core/edit.js";
import type { Strategy } from "../core/result.js";
import { planEdits } from "./plan.js";
import { movePaths, pathOf } from "./resolve-paths.js";
import type { FileSnapshot } from "./snapshot.js";

/** More files of one name than this are not searched: such a name (`index.js`) says too little. */
const MAX_CONTENT_CANDIDATES = 8;

/** The rungs that find lines as the model wrote them, whitespace, line endings and typography aside. */
const LINE_RUNGS: ReadonlySet<Strategy> = new Set([
  "exact",
  "line-endings",
  "trailing-whitespace",
  "indentation",
  "unicode",
]);

/** The paths of `several` (resolve-paths.ts) with few enough candidates to search. */
export function searchable(several: ReadonlyMap<string, readonly string[]>): Map<string, readonly string[]> {
  return new Map([...several].filter(([, candidates]) => candidates.length <= MAX_CONTENT_CANDIDATES));
}

/** How every edit of `path` is found in `candidate` (its rungs), or nothing when one is not. */
function holds(items: readonly ParsedItem[], path: string, candidate: string, snapshot: FileSnapshot): Strategy[] {
  const own = movePaths(
    items.filter((item) => pathOf(item) === path),
    new Map([[path, candidate]]),
  );
  const strategies: Strategy[] = [];
  for (const result of planEdits(own, snapshot).results) {
    if (!result.ok) return [];
    strategies.push(result.strategy);
  }
  return strategies;
}

/**
 * The items with each path of `search` moved to its one candidate holding all of its edits on a line rung, when no
 * other candidate holds them on any rung. `snapshot` holds the candidates' states (protected ones hold nothing).
 */
export function chooseByContent(
  items: readonly ParsedItem[],
  search: ReadonlyMap<string, readonly string[]>,
  snapshot: FileSnapshot,
): ParsedItem[] {
  const moved = new Map<string, string>();
  for (const [path, candidates] of search) {
    const holding = candidates
      .map((candidate) => ({ candidate, how: holds(items, path, candidate, snapshot) }))
      .filter(({ how }) => how.length > 0);
    const only = holding.length === 1 ? holding[0]! : undefined;
    if (only?.how.every((strategy) => LINE_RUNGS.has(strategy)) === true) moved.set(path, only.candidate);
  }
  return movePaths(items, moved);
}
