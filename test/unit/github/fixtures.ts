/** Loads the JSON webhook payload fixtures (shaped like GitHub's) as fresh, mutable copies. */
import { readFileSync } from "node:fs";

export type FixtureName =
  | "issue-comment-created"
  | "issue-comment-on-pull"
  | "issue-comment-edited"
  | "issue-comment-by-bot"
  | "review-comment-created";

export function loadPayload(name: FixtureName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
}
