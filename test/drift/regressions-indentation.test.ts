/** Drift regressions on the indentation the splice keeps (how these tests are written: regression-run.ts). */
import { describe, expect, test } from "vitest";
import { landsOrRefuses, run } from "./regression-run.js";

describe("drift regressions (engine bugs): indentation kept by the splice", () => {
  // Harness case 1:846 (probot get-log.js, tab-indented). A JSDoc header (` * ` lines) outnumbers the tab-indented
  // lines, so the file's style is detected as "spaces, width 1", and a line the model wrote with the file's own
  // tabs, next to tab-indented lines matched exactly, is rewritten with two spaces.
  // Harness case 135:2743 (jsdiff create.js). A hunk whose context skipped a `}`: its `}` at 16 spaces matched the
  // file's `}` at 20 on the indentation rung, the nesting check reading that as "half a level per model level"
  // (a plausible misread unit for two lines), and the added line went inside the inner block. The added line, four
  // spaces from the others in a 4-space edit, would sit half a level off under that scale: the window is refused.
  test("indentation: a scale that puts the added lines between the file's levels does not match", async () => {
    const before = [
      "function f() {",
      "    if (a) {",
      "        if (b) {",
      "            if (prev) {",
      "                newRangeStart -= curRange.length;",
      "            }",
      "        }",
      "    }",
      "}",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/create.js",
      "+++ b/create.js",
      "@@ -5,2 +5,3 @@",
      "                 newRangeStart -= curRange.length;",
      '+            logDrift("probe");',
      "         }",
      "```",
      "",
    ].join("\n");
    const intended = before.replace(
      "            }\n        }",
      '            }\n            logDrift("probe");\n        }',
    );
    expect(landsOrRefuses(await run("create.js", before, reply), intended)).toBe(true);
  });

  // Harness case 17466:1220 (gettext.py, 4-space indented, a few comments indented with one tab). A line the
  // model added with a tab under a 16-space line was re-indented as one 4-space level, ending the loop it belongs to.
  test("indentation: a tab a model writes in a space-indented Python file is 8 columns, as Python reads it", async () => {
    const before = [
      "def find(langs):",
      "    for lang in langs:",
      "        if lang:",
      "            if all:",
      "                result.append(lang)",
      "        ",
      "\t# then the next one",
      "        other(lang)",
      "    return result",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/find.py",
      "+++ b/find.py",
      "@@ @@",
      "             if all:",
      "                 result.append(lang)",
      "         ",
      '+\tlog("probe")',
      "```",
      "",
    ].join("\n");
    const intended = before.replace("        \n", '        \n        log("probe")\n');
    expect(await run("find.py", before, reply)).toBe(intended);
    // Elsewhere a lone tab is read as one level of the writer's unit.
    expect(await run("find.js", before, reply.replaceAll("find.py", "find.js"))).toBe(
      before.replace("        \n", '        \n    log("probe")\n'),
    );
  });

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

  // Harness case 9154:147. The hunk left out the inner `}` of two; its `}`, written at the outer one's depth, matched
  // the inner one on the indentation rung while its first line matched byte for byte, and the added line went
  // inside the outer block.
  test("indentation: a `}` the model wrote at a depth the file has just below is not taken for the inner one", async () => {
    const before = [
      "function outer() {",
      "  return (() => {",
      "    while (true) {",
      "      for (const key of keys) {",
      "        seen.add(key);",
      "      }",
      "    }",
      "",
      "    return seen;",
      "  })();",
      "}",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/outer.js",
      "+++ b/outer.js",
      "@@ -5,3 +5,4 @@",
      "         seen.add(key);",
      "     }",
      '+    logDrift("probe");',
      " ",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("    }\n\n", '    }\n    logDrift("probe");\n\n');
    expect(landsOrRefuses(await run("outer.js", before, reply), intended)).toBe(true);
  });

  // Harness case 10371:1078 (commented-out code). The hunk left out one `},` of two; its `},`, written with the
  // spaces of the outer one, matched the inner one on the unicode rung (runs of spaces collapse) while its first line
  // matched byte for byte, and the inner line was removed.
  test("unicode: a line the model wrote with the spacing of the file's next line is not taken for the one before", async () => {
    const before = [
      "// expect(result).toMatchObject({",
      "//   error: {",
      "//     input: {",
      '//       unknownKeys: "strip",',
      "//     },",
      "//   },",
      '//   validation: "json",',
      "// });",
      "",
    ].join("\n");
    const reply = [
      "```diff",
      "--- a/json.test.ts",
      "+++ b/json.test.ts",
      "@@ @@",
      ' //       unknownKeys: "strip",',
      "-//   },",
      "```",
      "",
    ].join("\n");
    const intended = before.replace("//     },\n//   },\n", "//     },\n");
    expect(landsOrRefuses(await run("json.test.ts", before, reply), intended)).toBe(true);
  });
});
