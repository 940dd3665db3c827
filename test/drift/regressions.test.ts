/**
 * Engine bugs found by the drift harness, each reduced to a minimal reply over a small file. A new one is added
 * as `test.fails` while the bug stands (vitest then reports it as unexpectedly passing once the engine is fixed,
 * and the marker goes). Each test states what a correct engine may do (land as intended, or refuse).
 */
import { describe, expect, test } from "vitest";
import { applyEdits } from "../../src/engine.js";

async function run(path: string, before: string, reply: string): Promise<string | undefined> {
  const result = await applyEdits(reply, (p) => (p === path ? before : undefined), { knownPaths: [path] });
  const after = result.files.get(path);
  return after === null ? "<deleted>" : after;
}

/** Either the intended text or a refusal (undefined: nothing written). */
const landsOrRefuses = (after: string | undefined, intended: string): boolean =>
  after === undefined || after === intended;

describe("drift regressions (engine bugs)", () => {
  // Harness case 1:1918 (diff/libesm/diff/line.js). The hunk removes `super(...arguments);` but leaves out the
  // next line; the fuzzy rung pairs the removed line with that next line (a 1:1 "drifted" stretch, paired in order
  // without any similarity check) and deletes `this.tokenize = tokenize;` instead.
  test("fuzzy: a removed line is never paired with a dissimilar line", async () => {
    const before = [
      "class LineDiff extends Diff {",
      "    constructor() {",
      "        super(...arguments);",
      "        this.tokenize = tokenize;",
      "    }",
      "    equals(left, right, options) {",
      "        // If we're ignoring whitespace, we need to normalise lines by stripping",
      "        // whitespace before checking equality. (This has an annoying interaction",
      "        // with newlineIsToken that requires special handling: if newlines get their",
      "        return super.equals(left, right, options);",
      "    }",
      "}",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/line.js",
      "+++ b/line.js",
      "@@ -3,7 +3,6 @@",
      "-        super(...arguments);",
      "     }",
      "     equals(left, right, options) {",
      "         // If we're ignoring whitespace, we need to normalise lines by stripping",
      "         // whitespace before checking equality. (This has an annoying interaction",
      "         // with newlineIsToken that requires special handling: if newlines get their",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("        super(...arguments);\n", "");
    expect(landsOrRefuses(await run("line.js", before, reply), intended)).toBe(true);
  });

  // Harness case 1:170 (zod primitive.test.ts). The SEARCH skips one line and then adds a line after `});`. The
  // ladder retries without the trailing blank line, and the fuzzy rung takes a window one line SHORTER than the
  // SEARCH: `});` is then treated as an invented line covering nothing, and the new line lands inside the test,
  // before `expect(... null ...)`, instead of after `});`.
  test("fuzzy: an added line is not moved before real lines when its neighbour is left unpaired", async () => {
    const before = [
      'test("symbol schema", () => {',
      '  symbolSchema.parse(Symbol("foo"));',
      "  expect(() => symbolSchema.parse(new Date())).toThrow();",
      "  expect(() => symbolSchema.parse(undefined)).toThrow();",
      "  expect(() => symbolSchema.parse(null)).toThrow();",
      "});",
      "",
      'test("undefined schema", () => {',
      "  undefinedSchema.parse(undefined);",
      "});",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/p.test.ts",
      "+++ b/p.test.ts",
      "@@ @@",
      "   expect(() => symbolSchema.parse(new Date())).toThrow();",
      "   expect(() => symbolSchema.parse(undefined)).toThrow();",
      " });",
      '+logDrift("probe");',
      " ",
      "```",
      "",
    ].join("\n");
    const intended = before.replace('});\n\ntest("undefined', '});\nlogDrift("probe");\n\ntest("undefined');
    expect(landsOrRefuses(await run("p.test.ts", before, reply), intended)).toBe(true);
  });

  // Harness cases 1:211 and 1:1604. A SEARCH whose last old line is an elision, followed by an added line: the
  // trailing elision is read as "everything to the end of the file", so the new line is appended at the end of the
  // file, far from the block the model quoted. Where the elided run ends is unknown: the edit cannot be located.
  test("elision: an insertion after a trailing elision is not appended at the end of the file", async () => {
    const before = [
      "function first() {",
      "  const broken = [];",
      "  for (const m of methods) broken.push(m);",
      "  return broken;",
      "}",
      "",
      "function second() {",
      "  return 2;",
      "}",
      "",
    ].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: a.ts",
      "@@ function first() {",
      "   const broken = [];",
      "   // ... existing code ...",
      '+  logDrift("probe");',
      "*** End Patch",
      "",
    ].join("\n");
    const after = await run("a.ts", before, reply);
    // No single intended text exists (the model did not say where the elided run ends); refusing is right, and
    // anything written must at least keep the new line inside first().
    expect(after === undefined || after.indexOf("logDrift") < after.indexOf("function second")).toBe(true);
  });

  // Harness case 1:846 (probot get-log.js, tab-indented). A JSDoc header (` * ` lines) outnumbers the tab-indented
  // lines, so the file's style is detected as "spaces, width 1", and a line the model wrote with the file's own
  // tabs, next to tab-indented lines matched exactly, is rewritten with two spaces.
  test("indentation: an exact edit in a tab-indented file with a JSDoc header keeps its tabs", async () => {
    const header = ["/**", ...Array.from({ length: 12 }, (_, i) => ` * line ${i} of the documentation`), " */"];
    const before = [
      ...header,
      "export function getLog(options = {}) {",
      "\tconst pinoOptions = {",
      '\t\tlevel: level || "info",',
      '\t\tname: "probot",',
      "\t};",
      "\treturn pino(pinoOptions);",
      "}",
      "",
    ].join("\n");
    const reply = [
      "get-log.js",
      "```js",
      "<<<<<<< SEARCH",
      '\t\tlevel: level || "info",',
      '\t\tname: "probot",',
      "=======",
      '\t\tlevel: level || "info",',
      '\t\tname: "probot",',
      '\t\tmessageKey: "msg",',
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.replace('\t\tname: "probot",\n', '\t\tname: "probot",\n\t\tmessageKey: "msg",\n');
    expect(await run("get-log.js", before, reply)).toBe(intended);
  });

  // Harness cases 1:336 and 1:1246 (git contrib Makefile), 1:335 (init.sh). On the exact rung, a changed line
  // whose indentation uses the file's minority characters (spaces in a tab-indented Makefile, a continuation
  // line) is re-rendered in the dominant style: its spaces become tabs although the model copied them exactly.
  test("indentation: an exact edit keeps the indentation characters the model copied from the line", async () => {
    const before = [
      "all: build",
      "",
      "build:",
      '\t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "                build-perl-script",
      "",
      "install: build",
      '\t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "                install-perl-script",
      "",
      "clean:",
      "\trm -f git-credential-netrc",
      "",
    ].join("\n");
    const reply = [
      "Makefile",
      "```makefile",
      "<<<<<<< SEARCH",
      "install: build",
      '\t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "                install-perl-script",
      "=======",
      "install: build",
      '\t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "                install-perl-script-v2",
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("install-perl-script\n", "install-perl-script-v2\n");
    expect(await run("Makefile", before, reply)).toBe(intended);
  });

  // Harness case 2:668 (simple-git git-error.d.ts). A whole-file reply in a ```` fence (as models do when the file
  // holds ``` lines): a bare ``` line inside the file (the end of a JSDoc example whose opener is ` * ```ts`) is
  // counted as opening a nested block (scanFence: `depth++` for a bare fence at depth 0), so the ```` closer is
  // taken for its end and the reply is refused as an unclosed block. A 3-backtick line can neither close a
  // 4-backtick fence nor (being bare) open anything in CommonMark.
  test("whole file: a bare ``` line inside a ```` fence is content", async () => {
    const before = [
      "/**",
      " * Example:",
      " * ```typescript",
      " const git = simpleGit();",
      " ```",
      " */",
      "export declare class GitError extends Error {",
      "    task?: string;",
      "}",
      "",
    ].join("\n");
    const after = before.replace("task?: string;", "task?: string | undefined;");
    const reply = ["git-error.d.ts", "````typescript", ...after.split("\n").slice(0, -1), "````", ""].join("\n");
    expect(await run("git-error.d.ts", before, reply)).toBe(after);
  });

  // Harness case 3:760 (Python multiprocessing/connection.py). A whole-file reply is refused as "elision would
  // delete code" because the file itself holds the comment `# ... except on Windows 8 and later, where` (a sentence
  // continued from the line above). isCommentElision treats every comment whose body starts with "..." as an
  // elision; a line that is in the current file verbatim is content, not an elision.
  test("whole file: a real comment starting with '...' is not an elision", async () => {
    const before = [
      "def wait(ov):",
      "    # If o.fileno() is an overlapped pipe handle and",
      "    # err == 0 then there is a zero length message",
      "    # in the pipe, but it HAS NOT been consumed...",
      "    if ov:",
      "        # ... except on Windows 8 and later, where",
      "        # the message HAS been consumed.",
      "        return ov.result()",
      "    return None",
      "",
    ].join("\n");
    const after = before.replace("return None", "return 0");
    const reply = ["conn.py", "```python", ...after.split("\n").slice(0, -1), "```", ""].join("\n");
    expect(await run("conn.py", before, reply)).toBe(after);
  });

  // Harness leading-blank cases (e.g. 1:1133, parsers/number.ts). A SEARCH with a spurious leading blank line
  // whose other lines occur exactly once is refused as ambiguous: the first ladder pass (blank line included)
  // reaches the fuzzy rung, which finds two similar windows and reports ambiguity, and the ladder only retries
  // without the blank line after "not found" (ladder.ts, locate: `result.kind === "not-found" && trimmed`).
  test("ladder: a spurious leading blank line does not make a unique SEARCH ambiguous", async () => {
    const before = [
      "function min(check) {",
      "  if (check.inclusive) {",
      "    setResponseValueAndErrors(res, 'minimum', check.value, check.message, refs);",
      "  } else {",
      "    setResponseValueAndErrors(res, 'exclusiveMinimum', check.value, check.message, refs);",
      "  }",
      "}",
      "function max(check) {",
      "  if (check.inclusive) {",
      "    setResponseValueAndErrors(res, 'maximum', check.value, check.message, refs);",
      "  } else {",
      "    setResponseValueAndErrors(res, 'exclusiveMaximum', check.value, check.message, refs);",
      "  }",
      "}",
      "",
    ].join("\n");
    const reply = [
      "n.ts",
      "```ts",
      "<<<<<<< SEARCH",
      "",
      "  if (check.inclusive) {",
      "    setResponseValueAndErrors(res, 'maximum', check.value, check.message, refs);",
      "  } else {",
      "=======",
      "",
      "  if (check.inclusive) {",
      "    setResponseValueAndErrors(res, 'maximum (drift)', check.value, check.message, refs);",
      "  } else {",
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("'maximum', check", "'maximum (drift)', check");
    expect(await run("n.ts", before, reply)).toBe(intended);
  });

  // Harness case 6:1163 (yaml/dist/util.js). The patch leaves out the `stringifyNumber` line above the one it
  // changes; the fuzzy rung took a window one line short and paired `-stringifyString` with the look-alike
  // `stringifyNumber` line, replacing that one instead. The removed line is in the file verbatim, one line further.
  test("fuzzy: a drifted pair is not trusted when its old line is in the file verbatim nearby", async () => {
    const before = [
      "'use strict';",
      "",
      "var seq = require('./schema/common/seq.js');",
      "var string = require('./schema/common/string.js');",
      "var foldFlowLines = require('./stringify/foldFlowLines.js');",
      "var stringifyNumber = require('./stringify/stringifyNumber.js');",
      "var stringifyString = require('./stringify/stringifyString.js');",
      "",
      "exports.seq = seq;",
      "",
    ].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: util.js",
      "@@",
      " var seq = require('./schema/common/seq.js');",
      " var string = require('./schema/common/string.js');",
      " var foldFlowLines = require('./stringify/foldFlowLines.js');",
      "-var stringifyString = require('./stringify/stringifyString.js');",
      "+var stringifyString = require('./stringifyNext/stringifyString.js');",
      "*** End Patch",
      "",
    ].join("\n");
    const intended = before.replace("./stringify/stringifyString.js", "./stringifyNext/stringifyString.js");
    expect(landsOrRefuses(await run("util.js", before, reply), intended)).toBe(true);
  });

  // Harness case 5:1307 (git contrib Makefile). Old lines: blank, A, M, blank, then `+x`, then a blank the file
  // does not have there. The blank-context retry dropped BOTH blanks after M (across the added line), so `+x`
  // landed between M and the blank the model had put it below.
  test("ladder: the blank-context retry never drops a blank line across added lines", async () => {
    const before = ["x := 1", "", "A = 1", "M = 2", "", "G := g", "", "D := d", ""].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: Makefile",
      "@@",
      " ",
      " A = 1",
      " M = 2",
      " ",
      "+# probe",
      " ",
      "*** End Patch",
      "",
    ].join("\n");
    const after = await run("Makefile", before, reply);
    // Below the blank line after M, as written (the model left out `G := g`, so either side of it is defensible).
    const belowBlank = before.replace("M = 2\n\n", "M = 2\n\n# probe\n");
    expect(after === undefined || after === belowBlank).toBe(true);
  });

  // Harness case 8:2514 (Python bytecode_helper.py, CRLF, no final newline). `self.fail(msg)` occurs several times;
  // the exact rung compares a CRLF line with its `\r`, so LF model text matched only the file's last line (it has
  // no ending) and that one was deleted, as the only "exact" hit. Endings are invisible in a reply: every window
  // that differs only by them is a candidate, and the hunk's line number (38) picks the right one.
  test("exact: a CRLF file's unterminated last line does not hide the other occurrences", async () => {
    const before = ["def a():", "    if x:", "        fail(msg)", "    return 1", "def b():", "    fail(msg)"].join(
      "\r\n",
    );
    const hunk = ["```diff", "--- a/h.py", "+++ b/h.py", "@@ -3,1 +3,0 @@", "-        fail(msg)", "```", ""];
    expect(await run("h.py", before, hunk.join("\n"))).toBe(before.replace("        fail(msg)\r\n", ""));
    const last = before.replace("\r\n    fail(msg)", "\r\n        fail(msg)");
    const search = ["h.py", "```", "<<<<<<< SEARCH", "        fail(msg)", "=======", "        ok()", ">>>>>>> REPLACE"];
    // Without a line number the two occurrences are ambiguous.
    expect(await run("h.py", last, [...search, "```", ""].join("\n"))).toBeUndefined();
  });

  // Harness cases 13:318 and m12:96 (git-resurrect.sh, tab-indented, `case` arms indented tab + 4 spaces). On the
  // exact rung, a line added under `\t    --no-reflog)` with the same tab-and-spaces indentation was rewritten as
  // two tabs: a mixed indentation was never "the same characters" as itself.
  test("indentation: an exact edit keeps a tab-and-spaces indentation copied from the line above", async () => {
    const before = [
      "case $1 in",
      "\t    -l|--reflog)",
      "\t\tscan_reflog=t",
      "\t\t;;",
      "\t    --no-reflog)",
      "esac",
      "",
    ];
    const reply = [
      "r.sh",
      "```bash",
      "<<<<<<< SEARCH",
      "\t\t;;",
      "\t    --no-reflog)",
      "=======",
      "\t\t;;",
      "\t    --no-reflog)",
      '\t    echo "probe"',
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.join("\n").replace("--no-reflog)\n", '--no-reflog)\n\t    echo "probe"\n');
    expect(await run("r.sh", before.join("\n"), reply)).toBe(intended);
  });

  // Harness cases m9:251 (vitest chunk, tab-indented, a 2-space template literal) and 11:2707 (zod test, 2-space
  // file, `\t\t  ` inline snapshot). The added line's indentation is the one the model copied byte for byte on the
  // line below it, but the nearest line above (unindented, or tabs only) did not vouch for its characters, so it
  // was converted to the file's dominant style.
  test("indentation: an added line keeps an indentation the model copied exactly from another line", async () => {
    const before = [
      "function f() {",
      "\tconst a = 1;",
      "\tif (a) {",
      "\t\ta++;",
      "\t}",
      "\treturn `",
      "test('renders', () => {",
      "  const screen = render()",
      "})",
      "`;",
      "}",
      "",
    ].join("\n");
    const reply = [
      "f.js",
      "```js",
      "<<<<<<< SEARCH",
      "test('renders', () => {",
      "  const screen = render()",
      "=======",
      "test('renders', () => {",
      '  logDrift("probe");',
      "  const screen = render()",
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("=> {\n", '=> {\n  logDrift("probe");\n');
    expect(await run("f.js", before, reply)).toBe(intended);
  });

  // Harness case 6:2049 (Python email/_parseaddr.py). `elif ... == '(':` and the `commentlist.append` line below it
  // occur three times; the hunk quotes them, adds a line, then `...` (code in Python, so no elision) and a blank.
  // The fuzzy rung scored `...` against the `else:` after the first pair, took that window, then left `...`
  // unpaired: the edit landed at the first pair, picked by a line the file does not have.
  test("fuzzy: lines that occur elsewhere too are not told apart by an unpaired line", async () => {
    const arm = [
      "            elif self.field[self.pos] == '(':",
      "                self.commentlist.append(self.getcomment())",
    ];
    const before = [
      "    def gotonext(self):",
      "        while self.pos < len(self.field):",
      ...arm,
      "            else:",
      "                break",
      "",
      "    def getphraselist(self):",
      "        while self.pos < len(self.field):",
      ...arm,
      "            elif self.field[self.pos] in self.phraseends:",
      "                break",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/p.py",
      "+++ b/p.py",
      "@@ @@",
      ...arm.map((l) => ` ${l}`),
      '+                log_drift("probe")',
      "             ...",
      " ",
      "```",
      "",
    ].join("\n");
    const second = before.replace(
      `${arm[1]}\n            elif`,
      `${arm[1]}\n                log_drift("probe")\n            elif`,
    );
    expect(landsOrRefuses(await run("p.py", before, reply), second)).toBe(true);
  });

  // Harness cases 20:1445 (git's gnome-keyring Makefile) and 24:1300 (test/support/os_helper.py). The hunk drops
  // the line above the insertion; the fuzzy window starts one line short, the diff pairs the hunk's leading blank
  // line with the blank line below the dropped one, and the insertion lands after that blank line instead of before.
  test("fuzzy: a blank pair does not place added lines across unpaired lines", async () => {
    const before = [
      "MAIN:=git-credential-gnome-keyring",
      "all:: $(MAIN)",
      "",
      "INCS:=$(shell $(PKG_CONFIG) --cflags gnome-keyring-1 glib-2.0)",
      "LIBS:=$(shell $(PKG_CONFIG) --libs gnome-keyring-1 glib-2.0)",
      "",
      "SRCS:=$(MAIN).c",
      "OBJS:=$(SRCS:.c=.o)",
      "",
      "%.o: %.c",
      "",
    ].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: Makefile",
      "@@",
      " ",
      " INCS:=$(shell $(PKG_CONFIG) --cflags gnome-keyring-1 glib-2.0)",
      "+# probe",
      " ",
      " SRCS:=$(MAIN).c",
      " OBJS:=$(SRCS:.c=.o)",
      "*** End Patch",
      "",
    ].join("\n");
    const intended = before.replace("glib-2.0)\n\n", "glib-2.0)\n# probe\n\n");
    expect(landsOrRefuses(await run("Makefile", before, reply), intended)).toBe(true);
  });
});
