/**
 * Dialects models write besides the canonical ones: Cline's SEARCH/REPLACE markers, SEARCH lines quoted with the
 * line-number margin patchsmith's own messages use, a path given as a labelled comment or an "In path:" line, and
 * an apply_patch envelope around a Markdown file's fence lines. Markers of a known dialect that do not parse are a
 * reply the model meant as edits: refused as invalid-format with the line named, never "no edits".
 */
import { editblock, fence, patchDoc, patchUpdate, reply, udiff, wholeFile } from "../render.js";
import { swap, type CaseSpec } from "../spec.js";
import { applied, HANDLER_LIMIT, P, refusal, S } from "./common.js";

const LIMITED = "  const orders = await listOrders(session.userId, { limit: 20 });";
const handlersAfter = swap(S.handlers, HANDLER_LIMIT, LIMITED);

/** The lines of handlers.ts from `from` (1-based) on, `count` of them, with the margin `N | `. */
function numbered(from: number, count: number): string[] {
  return S.handlers
    .split("\n")
    .slice(from - 1, from - 1 + count)
    .map((line, i) => `${String(from + i)} | ${line}`);
}
const limitLine = S.handlers.split("\n").indexOf(HANDLER_LIMIT) + 1;

const SETUP_FROM = "docker compose down -v\ndocker compose up -d db\nmake seed";
const SETUP_TO = "docker compose down -v\ndocker compose up -d db\nmake migrate seed";

/** setup.md with a bare code fence (no info string), edited inside the block and again further down. */
const BARE_SETUP = swap(S.setup, "```sh", "```");
const PORT_FROM = "Set `LISTEN_ADDR=:9090`";
const PORT_TO = "Set `LISTEN_ADDR=:9091`";
const BARE_SETUP_AFTER = swap(swap(BARE_SETUP, SETUP_FROM, SETUP_TO), PORT_FROM, PORT_TO);

/** A Markdown file whose list items hold bare code fences indented under them. */
const RELEASE_PATH = "docs/release.md";
const RELEASE_STEP = ["   ```", "   git tag v1.2.3", "   git push --tags", "   ```"].join("\n");
const RELEASE_STEP_TO = RELEASE_STEP.replace("git push --tags", "git push origin v1.2.3");
const RELEASE = [
  "# Releasing",
  "",
  "1. Tag the release:",
  "",
  RELEASE_STEP,
  "",
  "2. Publish the package:",
  "",
  "   ```",
  "   npm publish",
  "   ```",
  "",
].join("\n");
const RELEASE_AFTER = swap(RELEASE, RELEASE_STEP, RELEASE_STEP_TO);

/** A changelog whose heading is underlined with seven dashes, as Roo's SEARCH separator is written. */
const CHANGES_PATH = "docs/changes.md";
const CHANGES = ["Changes", "-------", "", "- Fixed the parser.", ""].join("\n");
const CHANGES_AFTER = CHANGES.replace("- Fixed the parser.", "- Fixed the parser.\n- Faster start-up.");

/** The handlers.ts diff for LIMITED, with the leading space dropped from its unindented context lines (`}`). */
const UNPREFIXED_BRACES = udiff(P.handlers, S.handlers, handlersAfter)
  .split("\n")
  .map((line) => (line === " }" ? "}" : line))
  .join("\n");

/** The same diff with every context line written as the code itself: the diff's space dropped from each. */
const CONTEXT_AS_CODE = udiff(P.handlers, S.handlers, handlersAfter)
  .split("\n")
  .map((line) => (line.startsWith(" ") ? line.slice(1) : line))
  .join("\n");

export const DIALECTS: CaseSpec[] = [
  applied(
    "whitespace-udiff-context-written-as-code",
    "whitespace",
    "udiff",
    "A fenced diff whose context lines are the code as it stands, no diff space on any: read as written, since " +
      "the header counts them and their indentation is the file's (even), not the diff's (odd).",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply("Fewer orders per page:", fence(CONTEXT_AS_CODE)),
  ),
  applied(
    "whitespace-udiff-unprefixed-context",
    "whitespace",
    "udiff",
    "A fenced diff whose `}` context lines lost their leading space: context, since the header counts them.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply("Fewer orders per page:", fence(UNPREFIXED_BRACES)),
  ),
  applied(
    "exact-editblock-cline-markers",
    "exact",
    "editblock",
    "Cline's markers (`------- SEARCH`, `=======`, `+++++++ REPLACE`) under the path, without a fence.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply(
      "Fewer orders per page:",
      [P.handlers, "------- SEARCH", HANDLER_LIMIT, "=======", LIMITED, "+++++++ REPLACE"].join("\n"),
    ),
  ),
  applied(
    "exact-editblock-line-number-margin",
    "exact",
    "editblock",
    "Every SEARCH line carries the `N | ` margin of a quoted file, numbered in order; REPLACE does not.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply(
      "Fewer orders per page:",
      [
        P.handlers,
        "```ts",
        "<<<<<<< SEARCH",
        ...numbered(limitLine - 1, 3),
        "=======",
        "  }",
        LIMITED,
        "  sendJson(res, 200, { orders });",
        ">>>>>>> REPLACE",
        "```",
      ].join("\n"),
    ),
  ),
  applied(
    "path-decoration-labelled-comment-in-fence",
    "path-decoration",
    "editblock",
    "The path is a `// filepath:` comment on the first line inside the fence, above the SEARCH marker.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply(
      "Fewer orders per page:",
      [
        "```ts",
        `// filepath: ${P.handlers}`,
        "<<<<<<< SEARCH",
        HANDLER_LIMIT,
        "=======",
        LIMITED,
        ">>>>>>> REPLACE",
        "```",
      ].join("\n"),
    ),
  ),
  applied(
    "whole-file-labelled-comment-first-line",
    "whole-file",
    "whole",
    "A whole file whose fence names no path; its first line is `// File: PATH`, a header that is not written.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply(
      "The whole file, with fewer orders per page:",
      fence(`// File: ${P.handlers}\n${handlersAfter.trimEnd()}`, "ts"),
    ),
  ),
  applied(
    "path-decoration-in-path-line",
    "path-decoration",
    "editblock",
    "The path is given as `In PATH:` on the line before the fence.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply(
      `In ${P.handlers}:`,
      ["```ts", "<<<<<<< SEARCH", HANDLER_LIMIT, "=======", LIMITED, ">>>>>>> REPLACE", "```"].join("\n"),
    ),
  ),
  applied(
    "exact-patch-markdown-fences-as-context",
    "exact",
    "patch",
    "An apply_patch envelope, in a fenced block, whose context holds the Markdown file's own code fence lines.",
    { [P.setup]: S.setup },
    { [P.setup]: swap(S.setup, SETUP_FROM, SETUP_TO) },
    reply(
      "Migrate before seeding:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.setup}`,
            "@@",
            " ```sh",
            " docker compose down -v",
            " docker compose up -d db",
            "-make seed",
            "+make migrate seed",
            " ```",
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
  refusal(
    "invalid-format-patch-fence-line-without-prefix",
    "invalid-format",
    "patch",
    ["invalid-format"],
    "A context line of the Markdown file's fence lost its leading space: the patch names that line, not a truncation.",
    { [P.setup]: S.setup },
    reply(
      "Migrate before seeding:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.setup}`,
            "@@",
            "```sh",
            " docker compose down -v",
            " docker compose up -d db",
            "-make seed",
            "+make migrate seed",
            " ```",
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
  applied(
    "exact-udiff-markdown-bare-fences-as-context",
    "exact",
    "udiff",
    "A fenced diff of a Markdown file whose context holds the file's bare ``` lines: a context line is never the " +
      "closing fence, and the hunk after it is applied too.",
    { [P.setup]: BARE_SETUP },
    { [P.setup]: BARE_SETUP_AFTER },
    reply("Migrate before seeding, and move the port:", fence(udiff(P.setup, BARE_SETUP, BARE_SETUP_AFTER))),
  ),
  applied(
    "exact-patch-markdown-bare-fences-as-context",
    "exact",
    "patch",
    "An apply_patch envelope in a bare fence whose context holds the Markdown file's bare ``` lines.",
    { [P.setup]: BARE_SETUP },
    { [P.setup]: BARE_SETUP_AFTER },
    reply(
      "Migrate before seeding, and move the port:",
      fence(patchDoc(patchUpdate(P.setup, BARE_SETUP, BARE_SETUP_AFTER)), ""),
    ),
  ),
  applied(
    "exact-editblock-markdown-indented-fences-as-content",
    "exact",
    "editblock",
    "A SEARCH/REPLACE on a Markdown list item whose code fence is indented under it: that fence line is the " +
      "file's, not the one closing the reply's block, and keeps its indentation.",
    { [RELEASE_PATH]: RELEASE },
    { [RELEASE_PATH]: RELEASE_AFTER },
    reply("Push only the new tag:", editblock(RELEASE_PATH, RELEASE_STEP, RELEASE_STEP_TO)),
  ),
  applied(
    "whole-markdown-indented-fences-as-content",
    "whole-file",
    "whole",
    "A whole Markdown file whose list items hold indented code fences: the block ends at the fence in its own column.",
    { [RELEASE_PATH]: RELEASE },
    { [RELEASE_PATH]: RELEASE_AFTER },
    reply("Push only the new tag:", wholeFile(RELEASE_PATH, RELEASE_AFTER)),
  ),
  applied(
    "exact-editblock-heading-underline-first",
    "exact",
    "editblock",
    "A SEARCH that starts with a heading's `-------` underline, which the REPLACE keeps: the file's line, not Roo's " +
      "separator (which only follows the SEARCH marker, or its position lines, on the SEARCH side).",
    { [CHANGES_PATH]: CHANGES },
    { [CHANGES_PATH]: CHANGES_AFTER },
    reply(
      "Mention the start-up time:",
      editblock(CHANGES_PATH, "-------\n\n- Fixed the parser.", "-------\n\n- Fixed the parser.\n- Faster start-up."),
    ),
  ),
  refusal(
    "invalid-format-udiff-empty-hunk",
    "invalid-format",
    "udiff",
    ["invalid-format"],
    "A hunk header followed by the closing fence (its lines lost): refused by name, never dropped while the rest applies.",
    { [P.setup]: BARE_SETUP },
    reply(
      "Migrate before seeding, and move the port:",
      fence(`${udiff(P.setup, BARE_SETUP, swap(BARE_SETUP, SETUP_FROM, SETUP_TO))}\n@@ -40,3 +40,3 @@`),
    ),
  ),
  refusal(
    "invalid-format-near-search-marker",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "`<<< SEARCH` is too short to be a marker: the reply meant a block, so it is refused by name, not read as prose.",
    { [P.handlers]: S.handlers },
    reply(
      "Fewer orders per page:",
      [P.handlers, "```ts", "<<< SEARCH", HANDLER_LIMIT, "=======", LIMITED, ">>>>>>> REPLACE", "```"].join("\n"),
    ),
  ),
  applied(
    "whole-file-bare-path-comment-first-line",
    "whole-file",
    "whole",
    "The reply's only block names the file by a bare comment on its first line (`// PATH`): a header, not written.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersAfter },
    reply("The whole file, with fewer orders per page:", fence(`// ${P.handlers}\n${handlersAfter.trimEnd()}`, "ts")),
  ),
  applied(
    "whole-file-bare-path-comment-the-file-starts-with",
    "whole-file",
    "whole",
    "A bare path comment the file itself starts with is the file's own first line, and stays.",
    { "src/limits.ts": "// src/limits.ts\nexport const PAGE_SIZE = 50;\nexport const MAX_PAGES = 10;\n" },
    { "src/limits.ts": "// src/limits.ts\nexport const PAGE_SIZE = 20;\nexport const MAX_PAGES = 10;\n" },
    reply(
      "Fewer orders per page:",
      fence("// src/limits.ts\nexport const PAGE_SIZE = 20;\nexport const MAX_PAGES = 10;", "ts"),
    ),
  ),
  applied(
    "editblock-beside-example-named-by-bare-comment",
    "path-decoration",
    "editblock",
    "A SEARCH/REPLACE edit, then an example of its use whose first line names a real file in a bare comment: the " +
      "example is not a whole file to write.",
    { [P.handlers]: S.handlers, [P.orders]: S.orders },
    { [P.handlers]: handlersAfter, [P.orders]: S.orders },
    reply(
      "Fewer orders per page:",
      [P.handlers, "```ts", "<<<<<<< SEARCH", HANDLER_LIMIT, "=======", LIMITED, ">>>>>>> REPLACE", "```"].join("\n"),
      "Callers see it so:",
      fence(`// ${P.orders}\nconst page = await listOrders(userId, { limit: 20 });`, "ts"),
    ),
  ),
  refusal(
    "invalid-format-bare-path-comment-excerpt",
    "invalid-format",
    "whole",
    ["invalid-format"],
    "The reply's only block names the file by a bare comment and holds a few of its lines around `// ...`: an " +
      "excerpt, refused by name rather than read as no edit or written as the whole file.",
    { [P.handlers]: S.handlers },
    reply(
      "Fewer orders per page:",
      fence(`// ${P.handlers}\n// ... existing code ...\n${LIMITED}\n// ... existing code ...`, "ts"),
    ),
  ),
  refusal(
    "invalid-format-empty-patch",
    "invalid-format",
    "patch",
    ["invalid-format"],
    "A patch envelope with nothing inside.",
    { [P.handlers]: S.handlers },
    reply("Here is the patch:", fence(patchDoc(), "")),
  ),
];
