/**
 * The notes a repository keeps for coding agents (pure): `AGENTS.md`, at the root and in the folders of the files
 * shown (the one nearest a file is the more specific), and at the root, when it has none, `CLAUDE.md` or
 * `.github/copilot-instructions.md`, which other agents read. They say how the project wants its code written
 * (a test folder, a naming rule, a style) in words no ranking would find.
 */

/** The notes' own budget, apart from the files': a few thousand characters. */
export const MAX_INSTRUCTION_CHARS = 8_000;

const AGENTS = "AGENTS.md";
/** Read at the root when there is no AGENTS.md: what other agents' users write. */
const ROOT_FALLBACKS = ["CLAUDE.md", ".github/copilot-instructions.md"] as const;

const parentsOf = (path: string): string[] => {
  const parts = path.split("/").slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
};

/** The notes that apply to `shown` (repository paths), the root's first, then deeper folders' in path order. */
export function instructionPaths(paths: readonly string[], shown: readonly string[]): string[] {
  const present = new Set(paths);
  const root = [AGENTS, ...ROOT_FALLBACKS].find((p) => present.has(p));
  const nested = new Set<string>();
  for (const path of shown) {
    for (const dir of parentsOf(path)) if (present.has(`${dir}/${AGENTS}`)) nested.add(`${dir}/${AGENTS}`);
  }
  return [...(root === undefined ? [] : [root]), ...[...nested].sort()];
}

export interface Instructions {
  readonly path: string;
  readonly content: string;
}

/** The notes' contents within MAX_INSTRUCTION_CHARS, in order; one cut short says so. */
export function fitInstructions(notes: readonly Instructions[], budget = MAX_INSTRUCTION_CHARS): Instructions[] {
  const kept: Instructions[] = [];
  let left = budget;
  for (const note of notes) {
    const content = note.content.trim();
    if (content === "" || left <= 0) continue;
    kept.push({ path: note.path, content: content.length <= left ? content : `${content.slice(0, left)}\n… (cut)` });
    left -= content.length;
  }
  return kept;
}
