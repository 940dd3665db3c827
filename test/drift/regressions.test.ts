/** Drift regressions on the ladder, the exact rung, elisions and whole files (how these tests are written: regression-run.ts). */
import { describe, expect, test } from "vitest";
import { landsOrRefuses, run } from "./regression-run.js";

describe("drift regressions (engine bugs): ladder, exact, elision, whole files", () => {
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

  // Harness case 183:1527 (Python _osx_support.py). A SEARCH copied byte for byte from a nested loop, with a
  // spurious blank line above it: the exact rungs failed on that blank line, and the indentation rung found the same
  // lines four spaces shallower under a blank line in another function, and renamed there. Without the blank line
  // the SEARCH is in the file exactly once, byte for byte: two readings, two places (landing at the exact one
  // would be right too, but preferring it moved other cases to the wrong place).
  test("ladder: a spurious blank line does not let a loose match elsewhere beat the exact lines", async () => {
    const loop = (indent: string) => [
      `${indent}for cv in _UNIVERSAL_CONFIG_VARS:`,
      `${indent}    # Do not alter a config var explicitly overridden by env var`,
      `${indent}    if cv in _config_vars and cv not in os.environ:`,
      `${indent}        flags = _config_vars[cv]`,
    ];
    const before = [
      "def _remove_universal_flags(_config_vars):",
      '    """Remove all universal build arguments from config vars"""',
      "",
      ...loop("    "),
      "    return _config_vars",
      "",
      "def _remove_unsupported_archs(_config_vars):",
      "    if m is not None:",
      "        if not os.path.exists(sdk):",
      ...loop("            "),
      "    return _config_vars",
      "",
    ].join("\n");
    const search = ["", ...loop("            ")];
    const replace = search.map((l) => l.replaceAll("_config_vars", "_config_vars2"));
    const reply = [
      "t.py",
      "```python",
      "<<<<<<< SEARCH",
      ...search,
      "=======",
      ...replace,
      ">>>>>>> REPLACE",
      "```",
      "",
    ].join("\n");
    const intended = before.replace(loop("            ").join("\n"), replace.slice(1).join("\n"));
    expect(landsOrRefuses(await run("t.py", before, reply), intended)).toBe(true);
  });

  // Harness case 171:1276 (openai data-retention.ts, with trailing spaces on some lines). The hunk's context lost
  // those spaces and ends with a blank line; without the blank line, the same three lines are byte for byte at the
  // end of another method. Trailing whitespace is no evidence against a place whose blank line fits.
  test("ladder: a blank line that fits beats an exact copy elsewhere of lines that only lost trailing spaces", async () => {
    const end = (pad: string) => [`      __security: { adminAPIKeyAuth: true },${pad}`, `    });${pad}`, "  }"];
    const before = [
      "export class DataRetention {",
      "  retrieve(options) {",
      "    return this._client.get(path, {",
      ...end(""),
      "  update(body, options) {",
      "    return this._client.post(path, {",
      ...end("  "),
      "",
      "  list() {}",
      "}",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/d.ts",
      "+++ b/d.ts",
      "@@ -8,4 +8,5 @@",
      "       __security: { adminAPIKeyAuth: true },",
      "     });",
      "   }",
      '+  logDrift("probe");',
      " ",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("  }\n\n  list", '  }\n  logDrift("probe");\n\n  list');
    expect(landsOrRefuses(await run("d.ts", before, reply), intended)).toBe(true);
  });

  // Harness case 3:1768 (zod object-augmentation.test.ts). An `@@` anchor naming a test function, one context line
  // `  });` and an added line: the function holds two such lines, and the model meant the second. The anchor picked
  // the first in its block (the patch format's own reading), which put the line in the wrong place. Two candidates
  // in the anchor's block are ambiguous, however alike they read.
  test("anchor: two candidates in the anchor's block are ambiguous, even when they read the same", async () => {
    const before = [
      'test("object augmentation", () => {',
      "  const ModifiedAnimal = Animal.augment({",
      "    species: z.array(z.string()),",
      "  });",
      "  ModifiedAnimal.parse({",
      '    species: ["asd"],',
      "  });",
      "",
      "  expect(bad).toThrow();",
      "});",
      "",
    ].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: a.test.ts",
      '@@ test("object augmentation", () => {',
      "   });",
      '+  logDrift("probe");',
      "*** End Patch",
      "",
    ].join("\n");
    expect(await run("a.test.ts", before, reply)).toBeUndefined();
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
  // Harness case 9602:243. A hunk that replaces one of nine equal table entries, counting them from a distinct
  // line, left one copy out: the rest still matched byte for byte, and the entry before the meant one changed.
  test("exact: a change placed only by counting equal lines is not taken on trust", async () => {
    const run9 = Array.from({ length: 9 }, () => "    '\\ufffe'");
    const before = [
      "table = (",
      "    '\\x00'     #  0x00 -> first entry",
      ...run9,
      "    '\\x7f'     #  0x7F -> last entry",
      ")",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/table.py",
      "+++ b/table.py",
      "@@ -2,9 +2,9 @@",
      "     '\\x00'     #  0x00 -> first entry",
      ...Array.from({ length: 6 }, () => "     '\\ufffe'"),
      "-    '\\ufffe'",
      "+    '\\ufffe (changed)'",
      "     '\\ufffe'",
      "```",
      "",
    ].join("\n");
    // The model meant the eighth entry and wrote six copies before it instead of seven.
    const lines = before.split("\n");
    lines[9] = "    '\\ufffe (changed)'";
    expect(landsOrRefuses(await run("table.py", before, reply), lines.join("\n"))).toBe(true);
  });

  // Harness case 9827:610 (a shell test script). Two blocks of the same lines, the second with a trailing space
  // the model stripped when quoting it: the SEARCH matched the first block byte for byte, and the line went there.
  test("exact: a byte-for-byte copy elsewhere does not beat the place that differs only by trailing whitespace", async () => {
    const block = (trailing: string) => [
      "test_expect_success 'diff-highlight' '",
      "\tcat >expect <<-\\EOF &&",
      "\t--- a/file",
      `\t+++ b/file${trailing}`,
      "\t before",
      "\tEOF",
      "'",
      "",
    ];
    const before = [...block(""), ...block(" ")].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: t/t9400.sh",
      "@@",
      " \t--- a/file",
      '+\techo "probe"',
      " \t+++ b/file",
      " \t before",
      "*** End Patch",
      "",
    ].join("\n");
    // The model meant the second block (its line numbers are lost in an apply_patch envelope).
    const lines = before.split("\n");
    lines.splice(11, 0, '\techo "probe"');
    expect(landsOrRefuses(await run("t/t9400.sh", before, reply), lines.join("\n"))).toBe(true);
  });

  // Harness cases 9512:1305 and 9722:714 (a Makefile). The model quoted a recipe line ending with a backslash and
  // left out the line it continues onto; its added line went between them, into the middle of the command.
  test("exact: a line added after a continued line whose continuation the edit leaves out is not taken on trust", async () => {
    const before = [
      "install: build",
      '\t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "                install-perl-script",
      "",
      "clean:",
      "\trm -f git-credential-netrc",
      "",
    ].join("\n");
    const reply = [
      "*** Begin Patch",
      "*** Update File: Makefile",
      "@@",
      " install: build",
      ' \t$(MAKE) -C $(GIT_ROOT_DIR) SCRIPT_PERL="$(SCRIPT_PERL_FULL)" \\',
      "+\t# probe",
      "*** End Patch",
      "",
    ].join("\n");
    // The model meant to add after the continued command, whose last line it dropped.
    const lines = before.split("\n");
    lines.splice(3, 0, "\t# probe");
    expect(landsOrRefuses(await run("Makefile", before, reply), lines.join("\n"))).toBe(true);
  });

  // Harness cases 9608:150 and 10074:1058 (a codec table). The hunk changes the first of a run of equal entries right
  // after a distinct one and quotes nothing after it; the model had left out one copy before the change, so the
  // text still matched byte for byte, one entry early.
  test("exact: a change at the end of the SEARCH, inside a run the file goes on repeating, is not taken on trust", async () => {
    const before = ["table = (", "    '\\xbe'", ...Array.from({ length: 5 }, () => "    '\\ufffe'"), ")", ""].join(
      "\n",
    );
    const reply = [
      "```diff",
      "--- a/table.py",
      "+++ b/table.py",
      "@@ -2,2 +2,2 @@",
      "     '\\xbe'",
      "-    '\\ufffe'",
      "+    '\\ufffe (changed)'",
      "```",
      "",
    ].join("\n");
    // The model meant the second entry of the run.
    const lines = before.split("\n");
    lines[3] = "    '\\ufffe (changed)'";
    expect(landsOrRefuses(await run("table.py", before, reply), lines.join("\n"))).toBe(true);
  });
});
