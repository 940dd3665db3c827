/**
 * Outputs of commands run side by side, as one output interleaves them (pure). Runners of several scripts or
 * packages at once put a label before each line they pass on: pnpm (`. test:spec: `, `packages/a test: `), Turborepo
 * (`web:test: `), Yarn's `workspaces foreach` (`[web]: `), Lerna (`web: `). A runner's own format is then not at the
 * start of its lines, and its failures are read only once each label's lines are taken apart.
 */

/** A package's folder or name: what a label starts with (a runner's `--- FAIL: ` does not). */
const NAME = String.raw`[.\w@][\w@./-]*`;
/** A label and the separator after it, in one of the shapes above. */
const LABEL = new RegExp(String.raw`^(${NAME} [\w@./:-]+|${NAME}:[\w@./:-]+|\[[^\]\s]+\]|${NAME}): `);
/** A runner's own status word (`FAIL: test_parse`, `ERROR: …`), never a label. */
const STATUS_WORD = /^[A-Z]+$/;
/** Lines a label must lead to be one: a line such as `Error: boom` starts with a word and a colon too. */
const MIN_LABELLED = 3;

/**
 * The output's lines as the streams it interleaves, each without its label, then the lines no label leads; the
 * lines as they are when labelled lines are not the most of them.
 */
export function outputStreams(lines: readonly string[]): (readonly string[])[] {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const label = LABEL.exec(line)?.[1];
    if (label !== undefined) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const labels = [...counts]
    .filter(([label, n]) => n >= MIN_LABELLED && !STATUS_WORD.test(label))
    .map(([label]) => label);
  const labelled = labels.reduce((sum, label) => sum + counts.get(label)!, 0);
  const written = lines.filter((line) => line.trim() !== "").length;
  if (labels.length === 0 || labelled * 2 < written) return [lines];
  const streams = new Map<string, string[]>(labels.map((label) => [label, []]));
  const rest: string[] = [];
  for (const line of lines) {
    const label = LABEL.exec(line)?.[1];
    const stream = label === undefined ? undefined : streams.get(label);
    if (stream === undefined) rest.push(line);
    else stream.push(line.slice(label!.length + 2));
  }
  return [...streams.values(), rest];
}
