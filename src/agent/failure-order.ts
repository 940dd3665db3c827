/**
 * Which failures a prompt shows first (pure). A run that fails by the hundreds for reasons of its own (tests needing
 * the network, a package the set-up could not install) would otherwise fill the model's few kilobytes of test
 * output, and its list of names, with those, and the failures the request is about, further down the runner's
 * output, would not be shown at all.
 */
import type { FailureBlock } from "./failures/types.js";
import type { TestSummary } from "./types.js";

/** How many of the request's words (lower case) a failure's name and text hold. */
export function sharedWords(failure: FailureBlock, words: readonly string[]): number {
  const lower = `${failure.name}\n${failure.text}`.toLowerCase();
  return words.filter((word) => lower.includes(word)).length;
}

/** `summary` with its failures, and their names, in `order`'s order. */
function reordered(summary: TestSummary, order: (failures: readonly FailureBlock[]) => FailureBlock[]): TestSummary {
  if (summary.failures === undefined || summary.failures.length < 2) return summary;
  const failures = order(summary.failures);
  const named = new Set(failures.map((f) => f.name));
  return {
    ...summary,
    failures,
    failing: [...failures.map((f) => f.name), ...summary.failing.filter((name) => !named.has(name))],
  };
}

/** The failures sharing the most of the request's words first, the rest in the runner's order. */
export const relevantFirst = (summary: TestSummary, words: readonly string[]): TestSummary =>
  reordered(summary, (failures) =>
    failures
      .map((failure, order) => ({ failure, order, score: sharedWords(failure, words) }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .map((entry) => entry.failure),
  );

/** The failures `names` names first (the ones a change just broke), the rest in the runner's order. */
export const namedFirst = (summary: TestSummary, names: readonly string[]): TestSummary => {
  const first = new Set(names);
  return reordered(summary, (failures) => [
    ...failures.filter((f) => first.has(f.name)),
    ...failures.filter((f) => !first.has(f.name)),
  ]);
};
