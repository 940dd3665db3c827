/** ambiguity: two or more places on the first rung that finds the text refuse, unless a correct hint selects one. */
import { editblock, fence, patchDoc, reply } from "../render.js";
import { lineOf, swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, tree } from "./common.js";

const GUARD = `    if not rows:
        log.info("nothing to export")
        return 0
    destination.parent.mkdir(parents=True, exist_ok=True)`;
const guardLine = (nth: number): number => lineOf(S.exporters, GUARD, nth);
/** The exporters file with the nth `if not rows` guard's message changed. */
const guardChanged = (text: string, nth: number, message: string): string => {
  const at = text.split(GUARD).slice(0, nth).join(GUARD).length;
  return text.slice(0, at) + GUARD.replace('"nothing to export"', `"${message}"`) + text.slice(at + GUARD.length);
};
const guardHunk = (header: string, message: string): string =>
  [
    header,
    "     if not rows:",
    '-        log.info("nothing to export")',
    `+        log.info("${message}")`,
    "         return 0",
    "     destination.parent.mkdir(parents=True, exist_ok=True)",
  ].join("\n");

const PORTS_PATH = "config/ports.ini";
const PORTS_SECTION = (name: string): string => `[${name}]\nport = 8080\nenabled = true`;
/** Two sections alike, no final newline. */
const PORTS = `${PORTS_SECTION("server")}\n\n${PORTS_SECTION("worker")}`;

const LOADER_PATH = "tools/config_loader.py";
const LOADER = `"""Loads the deployment configuration from YAML files."""

from pathlib import Path

import yaml


def load(path: Path) -> dict:
    if not path.exists():
        raise FileNotFoundError(path)
    with path.open() as handle:
        return yaml.safe_load(handle) or {}


class Loader:
    """Caches parsed files so repeated lookups stay cheap."""

    def __init__(self, root: Path):
        self.root = root
        self.cache: dict[Path, dict] = {}

    def load(self, name: str) -> dict:
        path = self.root / name
        if path in self.cache:
            return self.cache[path]
        if not path.exists():
            raise FileNotFoundError(path)
        self.cache[path] = load(path)
        return self.cache[path]
`;
const LOADER_GUARD = "    if not path.exists():\n        raise FileNotFoundError(path)";
const LOADER_GUARD_TO = '    if not path.is_file():\n        raise FileNotFoundError(f"no config file at {path}")';

const PART_PATH = "src/part.ts";
const PART = `export namespace Part {
  export interface File {
    file: File.Data;

    /**
     * Marks where a cached prefix ends.
     */
    breakpoint?: File.Breakpoint;
  }

  export namespace File {
    export interface File {
      data?: string;
    }

    /**
     * Marks where a cached prefix ends.
     */
    export interface Breakpoint {
      mode: "explicit";
    }
  }
}
`;

const ambiguous = (
  id: string,
  note: string,
  before: Record<string, string>,
  body: string,
  format: CaseSpec["format"],
): CaseSpec => ({
  id,
  category: "ambiguity",
  format,
  expect: "refuse",
  reasons: ["ambiguous-match"],
  note,
  before: tree(before),
  reply: body,
});

const SETUP_PATH = "scripts/setup.sh";
const SETUP_HEAD = `# Everything below runs from the repository root, whatever the caller's directory.
cd "$(dirname "$0")/.."`;
const SETUP_TAIL = `RELEASE_DIR="$PWD/dist/release"
CHECKSUM_FILE="$RELEASE_DIR/SHA256SUMS"`;
const SETUP = `#!/bin/sh
set -eu

${SETUP_HEAD}
#
# Paths
#
${SETUP_TAIL}
`;

const TARGET_PATH = "src/report-target.ts";
const TARGET_FORMAT = "      format: ReportFormat | readonly ReportFormat[];";
const TARGET = [
  'import type { ReportFormat } from "./formats.js";',
  "",
  "export type ReportTarget =",
  "  | {",
  TARGET_FORMAT,
  "    }",
  "  | {",
  TARGET_FORMAT,
  '      destination: "stdout" | "stderr" | { readonly file: string };',
  "    };",
  "",
  'export const defaultTarget: ReportTarget = { format: "text" };',
  "",
].join("\n");

export const AMBIGUITY: CaseSpec[] = [
  ambiguous(
    "ambiguity-udiff-equal-lines-apart-first-removed",
    "The hunk removes a `format:` line and keeps the equal line after it, but the file's two copies stand in two " +
      "variants of a union, three lines apart: found loosely, the hunk's `-` picks the first only because it left " +
      "out the lines between them. Refused.",
    { [TARGET_PATH]: TARGET },
    reply(
      "The second variant gets its format from the destination, so it loses the field:",
      fence(
        [
          `--- a/${TARGET_PATH}`,
          `+++ b/${TARGET_PATH}`,
          "@@ -4,4 +4,3 @@",
          `-${TARGET_FORMAT}`,
          ` ${TARGET_FORMAT}`,
          "     };",
          " ",
        ].join("\n"),
      ),
    ),
    "udiff",
  ),
  ambiguous(
    "ambiguity-editblock-equal-lines-apart-one-removed",
    "The SEARCH quotes two `#` lines side by side, leaving out the heading between them, and the REPLACE keeps " +
      "one `#`: found loosely, either `#` could be the one removed, and the result differs. Refused.",
    { [SETUP_PATH]: SETUP },
    reply(
      "Drop the section rule above the paths:",
      editblock(SETUP_PATH, `${SETUP_HEAD}\n#\n#\n${SETUP_TAIL}`, `${SETUP_HEAD}\n#\n${SETUP_TAIL}`),
    ),
    "editblock",
  ),
  ambiguous(
    "ambiguity-editblock-duplicate-guard",
    "The session guard occurs in three handlers; no hint says which. Refused with every line number.",
    { [P.handlers]: S.handlers },
    reply(
      "Tell clients how to authenticate when the session is missing:",
      editblock(
        P.handlers,
        `  if (!session) {
    sendJson(res, 401, { error: "not signed in" });
    return;
  }`,
        `  if (!session) {
    res.setHeader("www-authenticate", "Bearer");
    sendJson(res, 401, { error: "not signed in" });
    return;
  }`,
      ),
    ),
    "editblock",
  ),
  ambiguous(
    "ambiguity-udiff-bare-header-duplicate",
    "A udiff hunk with a bare `@@ @@` whose lines occur in all three exporters.",
    { [P.exporters]: S.exporters },
    reply(
      "Say where the empty export would have gone:",
      fence([`--- a/${P.exporters}`, `+++ b/${P.exporters}`, guardHunk("@@ @@", "nothing to export to %s")].join("\n")),
    ),
    "udiff",
  ),
  ambiguous(
    "ambiguity-patch-no-anchor-duplicate",
    "apply_patch chunk without an @@ anchor whose lines occur three times.",
    { [P.exporters]: S.exporters },
    reply(
      "Log absolute paths:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.exporters}`,
            "@@",
            '-    log.info("exported %d rows to %s", len(rows), destination)',
            '+    log.info("exported %d rows to %s", len(rows), destination.resolve())',
            "     return len(rows)",
          ].join("\n"),
        ),
        "",
      ),
    ),
    "patch",
  ),
  {
    id: "ambiguity-udiff-correct-line-selects",
    category: "ambiguity",
    format: "udiff",
    expect: "apply",
    note: `Three identical guards; the hunk's start line (${guardLine(2)}) is exactly the second one's, which selects it.`,
    before: tree({ [P.exporters]: S.exporters }),
    after: tree({ [P.exporters]: guardChanged(S.exporters, 2, "nothing to export as JSON") }),
    reply: reply(
      "Make the JSON exporter's message specific:",
      fence(
        [
          `--- a/${P.exporters}`,
          `+++ b/${P.exporters}`,
          guardHunk(`@@ -${guardLine(2)},4 +${guardLine(2)},4 @@`, "nothing to export as JSON"),
        ].join("\n"),
      ),
    ),
  },
  {
    id: "ambiguity-udiff-no-newline-marker-selects-end",
    category: "ambiguity",
    format: "udiff",
    expect: "apply",
    note: "Two identical sections; the hunk has no line numbers, but `\\ No newline at end of file` after its old side says it ends the file, which selects the second.",
    before: tree({ [PORTS_PATH]: PORTS }),
    after: tree({ [PORTS_PATH]: `${PORTS_SECTION("server")}\n\n${PORTS_SECTION("worker").replace("true", "false")}` }),
    reply: reply(
      "Disable the worker:",
      fence(
        [
          `--- a/${PORTS_PATH}`,
          `+++ b/${PORTS_PATH}`,
          "@@ @@",
          " port = 8080",
          "-enabled = true",
          "\\ No newline at end of file",
          "+enabled = false",
          "\\ No newline at end of file",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "ambiguity-patch-anchor-selects",
    category: "ambiguity",
    format: "patch",
    expect: "apply",
    note: "Three identical guards; the @@ anchor names export_lines, which selects the third.",
    before: tree({ [P.exporters]: S.exporters }),
    after: tree({ [P.exporters]: guardChanged(S.exporters, 3, "nothing to export as JSON lines") }),
    reply: reply(
      "Only the JSON-lines exporter needs the clearer message:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.exporters}`,
            guardHunk("@@ def export_lines(rows, destination: Path) -> int:", "nothing to export as JSON lines"),
          ].join("\n"),
        ),
        "",
      ),
    ),
  },
  ambiguous(
    "ambiguity-udiff-wrong-line-refused",
    `The hunk claims line 5, which starts none of the three copies (lines ${guardLine(1)}, ${guardLine(2)}, ${guardLine(3)}); nearness is not a selection.`,
    { [P.exporters]: S.exporters },
    reply(
      "Clearer message for the CSV exporter:",
      fence(
        [`--- a/${P.exporters}`, `+++ b/${P.exporters}`, guardHunk("@@ -5,4 +5,4 @@", "nothing to export as CSV")].join(
          "\n",
        ),
      ),
    ),
    "udiff",
  ),
  {
    id: "ambiguity-udiff-line-after-earlier-hunk",
    category: "ambiguity",
    format: "udiff",
    expect: "apply",
    note: "The first hunk adds a line above; the second hunk's start line is correct for the ORIGINAL file and still selects the third copy.",
    before: tree({ [P.exporters]: S.exporters }),
    after: tree({
      [P.exporters]: guardChanged(
        swap(
          S.exporters,
          '    """Write rows as CSV and return how many were written."""\n',
          '    """Write rows as CSV and return how many were written."""\n    rows = list(rows)\n',
        ),
        3,
        "nothing to export as JSON lines",
      ),
    }),
    reply: reply(
      "Two fixes: materialise generators before the CSV export, and a clearer message in the JSON-lines exporter:",
      fence(
        [
          `--- a/${P.exporters}`,
          `+++ b/${P.exporters}`,
          "@@ -9,5 +9,6 @@",
          " def export_csv(rows, destination: Path) -> int:",
          '     """Write rows as CSV and return how many were written."""',
          "+    rows = list(rows)",
          "     if not rows:",
          '         log.info("nothing to export")',
          "         return 0",
          guardHunk(`@@ -${guardLine(3)},4 +${guardLine(3) + 1},4 @@`, "nothing to export as JSON lines"),
        ].join("\n"),
      ),
    ),
  },
  {
    id: "ambiguity-exact-unique-beats-loose",
    category: "ambiguity",
    format: "editblock",
    expect: "apply",
    note: "The SEARCH matches exactly once (the module function); the method's copy matches only with indentation ignored. Exact wins.",
    before: tree({ [LOADER_PATH]: LOADER }),
    after: tree({
      [LOADER_PATH]: LOADER.replace(
        `def load(path: Path) -> dict:\n${LOADER_GUARD}`,
        `def load(path: Path) -> dict:\n${LOADER_GUARD_TO}`,
      ),
    }),
    reply: reply(
      "Directories named like config files should fail clearly:",
      editblock(LOADER_PATH, LOADER_GUARD, LOADER_GUARD_TO),
    ),
  },
  ambiguous(
    "ambiguity-loose-tie-refused",
    "The SEARCH is indented by 2 spaces, matching neither copy exactly and both with indentation ignored: refused, not guessed.",
    { [LOADER_PATH]: LOADER },
    reply(
      "Directories named like config files should fail clearly:",
      editblock(
        LOADER_PATH,
        "  if not path.exists():\n      raise FileNotFoundError(path)",
        '  if not path.is_file():\n      raise FileNotFoundError(f"no config file at {path}")',
      ),
    ),
    "editblock",
  ),
  ambiguous(
    "ambiguity-rust-repeated-arm-tail",
    "A two-line SEARCH (`i += 1;` + closing brace) that ends seven match arms.",
    { [P.tokenizer]: S.tokenizer },
    reply(
      "Make the loop's flow explicit:",
      editblock(
        P.tokenizer,
        "                i += 1;\n            }",
        "                i += 1;\n                continue;\n            }",
      ),
    ),
    "editblock",
  ),
  ambiguous(
    "ambiguity-go-duplicate-return",
    "`return nil, ErrNotFound` occurs twice in Get.",
    { [P.cache]: S.cache },
    reply(
      "Wrap the error with the key:",
      editblock(P.cache, "\t\treturn nil, ErrNotFound", '\t\treturn nil, fmt.Errorf("%w: %s", ErrNotFound, key)'),
    ),
    "editblock",
  ),
  ambiguous(
    "ambiguity-patch-repeated-anchor-line-after-either-refused",
    "The @@ anchor names `export interface File {`, which the file has twice; the one context line stands inside " +
      "the first interface and right after the second: read as the block around it or as the line before it, the " +
      "anchor names two places.",
    { [PART_PATH]: PART },
    reply(
      "Say which breakpoint wins:",
      fence(
        patchDoc(
          [
            `*** Update File: ${PART_PATH}`,
            "@@ export interface File {",
            "      * Marks where a cached prefix ends.",
            "+     * Only the last one counts.",
          ].join("\n"),
        ),
        "",
      ),
    ),
    "patch",
  ),
];
