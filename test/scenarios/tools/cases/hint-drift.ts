/**
 * Hunk headers of a diff made against another version of the file: lines added or removed above since then move
 * every hunk by the same amount, and the place where the first hunk was found says by how much. A later hunk whose
 * text repeats (identical stanzas) must be placed by that drift, never by its stale header alone. And a diff whose
 * two sides both end without a newline leaves the file's final newline as it is.
 */
import type { CaseSpec } from "../spec.js";
import { fence, reply } from "../render.js";
import { tree } from "./common.js";

const PATH = "deploy/pools.toml";
const SERVER = ["[server]", 'host = "0.0.0.0"', "port = 8080", "workers = 4", ""];
const STANZA = ["[[pool]]", "size = 4", 'drain = "30s"', ""];
const LICENSE = ["# Copyright the deploy team.", "# Licensed under the MIT licence.", "# See LICENSE.", "#"];

const file = (header: readonly string[], third: string): string =>
  [
    ...header,
    ...SERVER,
    ...[1, 2, 3, 4, 5].flatMap((n) => (n === 3 ? ["[[pool]]", "size = 4", third, ""] : STANZA)),
  ].join("\n");

/** Hunk 1 changes the port; hunk 2 the third pool's drain. `at` = the 1-based line of `[server]` in the diff's base. */
function twoHunks(at: number): string {
  const third = at + SERVER.length + 2 * STANZA.length + 2; // the third pool's drain line
  return [
    `--- a/${PATH}`,
    `+++ b/${PATH}`,
    `@@ -${String(at)},4 +${String(at)},4 @@`,
    " [server]",
    ' host = "0.0.0.0"',
    "-port = 8080",
    "+port = 9090",
    " workers = 4",
    `@@ -${String(third - 3)},7 +${String(third - 3)},7 @@`,
    " ",
    " [[pool]]",
    " size = 4",
    '-drain = "30s"',
    '+drain = "90s"',
    " ",
    " [[pool]]",
    " size = 4",
  ].join("\n");
}

const drifted = (id: string, note: string, header: readonly string[], diffBaseAt: number): CaseSpec => ({
  id,
  category: "stale-line-numbers",
  format: "udiff",
  expect: "apply",
  note,
  before: tree({ [PATH]: `${file(header, 'drain = "30s"')}\n` }),
  after: tree({ [PATH]: `${file(header, 'drain = "90s"').replace("port = 8080", "port = 9090")}\n` }),
  reply: reply("Move the service to 9090 and give the third pool longer to drain:", fence(twoHunks(diffBaseAt))),
});

const ROUTES = [
  'import { Router } from "./router.js";',
  'import { listOrders } from "./orders.js";',
  "",
  "export const routes = new Router();",
  "",
  'routes.get("/orders", listOrders);',
  "",
].join("\n");

export const HINT_DRIFT: CaseSpec[] = [
  drifted(
    "stale-line-numbers-drift-carried-lines-removed",
    "The diff was made before a 4-line licence header was removed: both hunks' headers are 4 too high. The second " +
      "hunk's text occurs four times, and its raw header points at the fourth pool; the first hunk, found 4 lines " +
      "above its header, says the third.",
    [],
    1 + LICENSE.length,
  ),
  drifted(
    "stale-line-numbers-drift-carried-lines-added",
    "The diff was made before a 4-line licence header was added: both headers are 4 too low, and the second " +
      "hunk's raw header points at the second pool; the first hunk's drift says the third.",
    LICENSE,
    1,
  ),
  {
    id: "final-newline-kept-when-both-sides-lack-it",
    category: "final-newline",
    format: "udiff",
    expect: "apply",
    note:
      "Both sides of the diff end with `\\ No newline at end of file`: the diff does not change the final " +
      "newline, so the file keeps the one it has.",
    before: tree({ "VERSION.txt": "release: 4.1\nchannel: stable\n" }),
    after: tree({ "VERSION.txt": "release: 4.2\nchannel: stable\n" }),
    reply: reply(
      "Bump the release:",
      fence(
        [
          "--- a/VERSION.txt",
          "+++ b/VERSION.txt",
          "@@ -1,2 +1,2 @@",
          "-release: 4.1",
          "-channel: stable",
          "\\ No newline at end of file",
          "+release: 4.2",
          "+channel: stable",
          "\\ No newline at end of file",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "stale-line-numbers-zero-context-hunk-removes-line-written-before",
    category: "stale-line-numbers",
    format: "udiff",
    expect: "refuse",
    reasons: ["hunk-context-mismatch"],
    note:
      "A diff without context lines, made against a newer file that imported `sendJson` further down: its first " +
      "hunk moves the import up, its second removes it where it was. This file never had it there, so the " +
      "second hunk's only match is the line the first just wrote; a diff's hunks are against the file as it was.",
    before: tree({ "src/routes.ts": ROUTES }),
    reply: reply(
      "Move the import to the top:",
      fence(
        [
          "--- a/src/routes.ts",
          "+++ b/src/routes.ts",
          "@@ -2 +2,2 @@",
          '-import { listOrders } from "./orders.js";',
          '+import { listOrders, cancelOrder } from "./orders.js";',
          '+import { sendJson } from "./json.js";',
          "@@ -6 +6,0 @@",
          '-import { sendJson } from "./json.js";',
        ].join("\n"),
      ),
    ),
  },
];
