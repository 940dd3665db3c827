/**
 * The repository map (pure): the file tree plus the most referenced definitions, ranked, within a character
 * budget. A definition's rank is how many other files mention its name (divided among files that define the same
 * name), boosted when the instruction names it: a cheap stand-in for aider's graph ranking.
 */
import { extractDefinitions, identifiersIn, type Definition } from "./definitions.js";

export interface RepoMapInput {
  /** Every tracked path. */
  readonly paths: readonly string[];
  /** Contents of the source files to scan (a subset of `paths` is fine). */
  readonly contents: ReadonlyMap<string, string>;
  readonly budgetChars: number;
  /** Names and paths the instruction mentions: ranked first. */
  readonly boost?: ReadonlySet<string>;
}

export interface RankedDefinition extends Definition {
  readonly score: number;
}

export function rankDefinitions(
  contents: ReadonlyMap<string, string>,
  boost: ReadonlySet<string> = new Set(),
): RankedDefinition[] {
  const definitions: Definition[] = [];
  const definers = new Map<string, Set<string>>();
  for (const [path, content] of contents) {
    for (const def of extractDefinitions(path, content)) {
      definitions.push(def);
      let set = definers.get(def.name);
      if (!set) definers.set(def.name, (set = new Set()));
      set.add(path);
    }
  }
  const references = new Map<string, number>();
  for (const [path, content] of contents) {
    for (const id of identifiersIn(content)) {
      const defining = definers.get(id);
      if (defining === undefined || defining.has(path)) continue;
      references.set(id, (references.get(id) ?? 0) + 1);
    }
  }
  const ranked = definitions.map((def) => {
    const spread = definers.get(def.name)?.size ?? 1;
    let score = (references.get(def.name) ?? 0) / spread;
    if (boost.has(def.name)) score += 1000;
    if (boost.has(def.path)) score += 100;
    return { ...def, score };
  });
  return ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line);
}

/** All paths when they fit; else folders (two levels) with file counts and the top-level files. */
export function renderTree(paths: readonly string[], budgetChars: number): string {
  const full = paths.join("\n");
  if (full.length <= budgetChars) return full;
  const counts = new Map<string, number>();
  const topFiles: string[] = [];
  for (const path of paths) {
    const parts = path.split("/");
    if (parts.length === 1) {
      topFiles.push(path);
      continue;
    }
    const key = `${parts.slice(0, Math.min(2, parts.length - 1)).join("/")}/`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const lines = [
    ...topFiles,
    ...[...counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([dir, n]) => `${dir} (${n} file${n === 1 ? "" : "s"})`),
  ];
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 > budgetChars - 40) {
      out.push(`… (${lines.length - i} more entries)`);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join("\n");
}

export interface RepoMap {
  readonly text: string;
  /** Files whose definitions made it into the map. */
  readonly files: readonly string[];
}

export function buildRepoMap(input: RepoMapInput): RepoMap {
  const treeBudget = Math.floor(input.budgetChars * 0.35);
  const tree = renderTree(input.paths, treeBudget);
  let remaining = input.budgetChars - tree.length - 80;
  const byFile = new Map<string, RankedDefinition[]>();
  for (const def of rankDefinitions(input.contents, input.boost)) {
    const cost = def.signature.length + String(def.line).length + 6 + (byFile.has(def.path) ? 0 : def.path.length + 2);
    if (cost > remaining) {
      if (remaining < 40) break;
      continue;
    }
    remaining -= cost;
    let list = byFile.get(def.path);
    if (!list) byFile.set(def.path, (list = []));
    list.push(def);
  }
  const sections = [...byFile.entries()].map(
    ([path, defs]) =>
      `${path}:\n${defs
        .sort((a, b) => a.line - b.line)
        .map((d) => `  ${d.line}: ${d.signature}`)
        .join("\n")}`,
  );
  const text = [
    `Files (${input.paths.length}):`,
    tree,
    ...(sections.length > 0 ? ["", "Definitions, most referenced first (file: line: definition):", ...sections] : []),
  ].join("\n");
  return { text, files: [...byFile.keys()] };
}
