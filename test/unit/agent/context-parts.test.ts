import { describe, expect, it } from "vitest";
import { rankFiles } from "../../../src/agent/context/bm25.js";
import { isCodePath } from "../../../src/agent/context/files.js";
import { importStatementsOf, importsOf } from "../../../src/agent/context/imports.js";
import { blamedBy } from "../../../src/agent/context/failing.js";
import { relevance } from "../../../src/agent/context/relevance.js";
import { excerpts } from "../../../src/agent/context/excerpts.js";
import { queryTerms, stem } from "../../../src/agent/context/terms.js";
import { createPathResolver, mentionedLocations } from "../../../src/agent/context/traces.js";

describe("queryTerms", () => {
  it("keeps identifiers whole and in parts, stems plain words, and drops what names no code", () => {
    expect(
      queryTerms("Fix `parseFlags` when --flag=false is given; see https://x.io/a\n\nCo-authored-by: A <a@b.io>"),
    ).toEqual(["parseflags", "pars", "flag"]);
    expect(stem("ranges")).toBe("range");
    expect(stem("parse")).toBe("pars");
    expect(stem("parsing")).toBe("pars");
    expect(stem("class")).toBe("class");
    expect(stem("discrepancies")).toBe("discrepancy");
  });

  it("keeps the names a dotted one joins whole too, as the code declares each on its own", () => {
    expect(queryTerms("Fix empty ranges in numeric_range.__reversed__")).toEqual([
      "numeric_range.__reversed__",
      "numeric_range",
      "__reversed__",
      "numeric",
      "rang",
      "revers",
      "empty",
      "range",
    ]);
  });
});

describe("excerpts of a file too big to show whole", () => {
  // 3,000 lines: a list naming the class near the top, the class and its method far below, filler between.
  const lines = Array.from({ length: 3000 }, (_, i) => `x${i} = ${i}`);
  lines[20] = "    'numeric_range',";
  lines[2000] = "class numeric_range(Sequence):";
  lines[2101] = "    def __reversed__(self):";
  lines[2102] = "        return numeric_range(self._stop, self._start, -self._step)";
  const content = lines.join("\n");
  const terms = ["numeric_range", "__reversed__", "numeric", "rang", "revers"];

  it("shows first where the rarest words sit together, then the other places they sit, each line once", () => {
    const parts = excerpts(content, terms);
    expect(parts.map((p) => [p.start, p.end])).toEqual([
      [2043, 2163],
      [1, 81],
      [1941, 2042],
    ]);
    expect(parts[0]!.text).toContain("def __reversed__(self):");
    expect(parts[2]!.text.split("\n")).toHaveLength(2042 - 1941 + 1);
    expect(parts[2]!.text.split("\n").at(-1)).toBe("x2041 = 2041");
  });

  it("shows one part when asked for one, and the lines asked for when given", () => {
    expect(excerpts(content, terms, undefined, 1).map((p) => [p.start, p.end])).toEqual([[2043, 2163]]);
    expect(excerpts(content, terms, { start: 500, end: 510 }).map((p) => [p.start, p.end])).toEqual([[440, 570]]);
    expect(excerpts(content, ["absent"]).map((p) => [p.start, p.end])).toEqual([[1, 61]]);
  });
});

describe("rankFiles", () => {
  it("ranks by rare terms in the text, by name, and by definitions; files without a match are left out", () => {
    const ranked = rankFiles({
      paths: ["lib/range.js", "lib/other.js", "lib/unrelated.js"],
      terms: ["range", "numeric"],
      counts: new Map([
        ["lib/other.js", new Map([["numeric", 1]])],
        ["lib/range.js", new Map([["numeric", 2]])],
      ]),
      sizes: new Map([
        ["lib/range.js", 1000],
        ["lib/other.js", 1000],
        ["lib/unrelated.js", 1000],
      ]),
      definitions: new Map(),
    });
    expect(ranked.map((r) => r.path)).toEqual(["lib/range.js", "lib/other.js"]);
    expect(ranked[0]!.matched).toEqual(["range", "numeric"]);
  });

  it("weighs a term by the whole collection grepped, however many documents also hold it", () => {
    // "minute" is in both code files and in three documents that are not ranked: still a match, not a penalty.
    const documents = ["README.md", "History.md", "docs/units.md"];
    const ranked = rankFiles({
      paths: ["index.js", "test/test.js"],
      terms: ["minute"],
      counts: new Map([
        ["index.js", new Map([["minute", 5]])],
        ["test/test.js", new Map([["minute", 4]])],
        ...documents.map((d) => [d, new Map([["minute", 2]])] as const),
      ]),
      sizes: new Map([
        ["index.js", 3000],
        ["test/test.js", 4000],
      ]),
      definitions: new Map(),
      collection: 5,
    });
    expect(ranked.map((r) => r.path)).toEqual(["index.js", "test/test.js"]);
    expect(ranked.every((r) => r.score > 0)).toBe(true);
  });
});

describe("importsOf", () => {
  const paths = [
    "index.js",
    "lib/a.ts",
    "lib/b/index.ts",
    "src/pkg/__init__.py",
    "src/pkg/mod.py",
    "src/lib.rs",
    "src/net.rs",
    "src/net/http.rs",
    "calc/x.go",
    "calc/x_test.go",
  ];
  const context = { exists: (p: string) => paths.includes(p), paths, goModule: "example.com/m" };
  it("resolves JavaScript and TypeScript relative imports, `.js` for `.ts` and folder indexes", () => {
    expect(
      importsOf("test/t.js", 'const m = require("../");\nimport x from "../lib/a.js";\nimport "../lib/b";', context),
    ).toEqual(["lib/a.ts", "lib/b/index.ts", "index.js"]);
    expect(importsOf("lib/a.ts", 'import x from "lodash";', context)).toEqual([]);
  });
  it("resolves Python, Rust and Go imports inside the repository", () => {
    expect(importsOf("tests/test_x.py", "from pkg.mod import f\nimport pkg", context)).toEqual([
      "src/pkg/mod.py",
      "src/pkg/__init__.py",
    ]);
    expect(importsOf("src/lib.rs", "mod net;\nuse crate::net::http::get;", context)).toEqual([
      "src/net.rs",
      "src/net/http.rs",
    ]);
    expect(importsOf("calc/x_test.go", 'package calc\nimport "testing"', context)).toEqual(["calc/x.go"]);
  });
  it("keeps the statement of each import: the whole import, a require's line, Python's from-import", () => {
    const js = 'import a, {\n  b,\n} from "../lib/a.js";\nconst { c } = require("../");';
    expect(importStatementsOf("test/t.js", js, context)).toEqual([
      { path: "lib/a.ts", statement: 'import a, {\n  b,\n} from "../lib/a.js"' },
      { path: "index.js", statement: 'const { c } = require("../");' },
    ]);
    expect(importStatementsOf("tests/test_x.py", "from pkg.mod import f, g\n", context)).toEqual([
      { path: "src/pkg/mod.py", statement: "from pkg.mod import f, g" },
    ]);
  });
});

describe("blamedBy", () => {
  it("reads a failure as naming an import by its specifier or by a name it takes, never by a keyword", () => {
    const statement = "import {isDomain, isSameProtocol} from '../src/utils/is.js'";
    expect(blamedBy(statement, "module '../src/utils/is.js' does not provide an export named 'x'")).toBe(true);
    expect(blamedBy(statement, "TypeError: isSameProtocol is not a function")).toBe(true);
    expect(blamedBy(statement, "TypeError: isSameProtocolX is not a function")).toBe(false);
    expect(blamedBy(statement, "cannot import from here")).toBe(false);
    expect(blamedBy("from pkg.stats import mean_of", "NameError: mean_of")).toBe(true);
  });
});

describe("relevance", () => {
  it("lends a test's score to the source it imports or is named after, and keeps tests apart", () => {
    const result = relevance({
      ranked: [
        { path: "tests/test_core.py", score: 10, matched: ["flag"] },
        { path: "src/pkg/core.py", score: 2, matched: ["flag"] },
        { path: "src/pkg/util.py", score: 3, matched: ["flag"] },
      ],
      imports: new Map(),
      codePaths: ["tests/test_core.py", "src/pkg/core.py", "src/pkg/util.py"],
      isTest: (p) => p.startsWith("tests/"),
    });
    expect(result.sources.map((s) => s.path)).toEqual(["src/pkg/core.py", "src/pkg/util.py"]);
    expect(result.tests.map((s) => s.path)).toEqual(["tests/test_core.py"]);
  });

  it("lends a test's namesake more than the other files it imports (a Go test imports its whole package)", () => {
    const pkg = ["fish.go", "bash.go", "command.go"];
    const result = relevance({
      ranked: [
        { path: "fish_test.go", score: 20, matched: ["fish"] },
        { path: "bash.go", score: 6, matched: ["shell"] },
        { path: "command.go", score: 5, matched: ["shell"] },
        { path: "fish.go", score: 4, matched: ["fish"] },
      ],
      imports: new Map([["fish_test.go", pkg]]),
      codePaths: ["fish_test.go", ...pkg],
      isTest: (p) => p.endsWith("_test.go"),
    });
    expect(result.sources.map((s) => [s.path, s.lentBy])).toEqual([
      ["fish.go", "fish_test.go"],
      ["bash.go", "fish_test.go"],
      ["command.go", "fish_test.go"],
    ]);
  });
});

describe("mentionedLocations", () => {
  const resolve = createPathResolver(["src/app.js", "lib/util/parse.py", "index.js"]);
  it("finds stack frames and path:line mentions, matched by their repository suffix", () => {
    const text = [
      "    at run (/home/ci/work/app/src/app.js:12:5)",
      '  File "/usr/lib/python3/site/lib/util/parse.py", line 40, in parse',
      "    at Module._compile (node:internal/modules/cjs/loader:1105:14)",
      "    at Object.<anonymous> (/usr/share/other/index.js:1:1)",
    ].join("\n");
    expect(mentionedLocations(text, resolve)).toEqual([
      { path: "src/app.js", line: 12 },
      { path: "lib/util/parse.py", line: 40 },
    ]);
  });

  it("reads a compiled file the repository does not hold as its TypeScript source, without the compiled line", () => {
    const ts = createPathResolver(["src/v35.ts", "src/test/v35.test.ts", "src/test/util.ts", "lib/util.ts"]);
    const text = [
      "location: 'dist-node/test/v35.test.js:89:5'",
      "    at run (dist/esm/v35.js:12:5)",
      // Two sources would fit: neither is taken.
      "    at helper (/tmp/clone/dist/util.js:3:1)",
    ].join("\n");
    expect(mentionedLocations(text, ts)).toEqual([{ path: "src/test/v35.test.ts" }, { path: "src/v35.ts" }]);
    // A JavaScript file the repository holds is itself, line and all.
    const js = createPathResolver(["dist/x.js", "src/x.ts"]);
    expect(mentionedLocations("at f (dist/x.js:4:2)", js)).toEqual([{ path: "dist/x.js", line: 4 }]);
  });
});

describe("isCodePath", () => {
  it("takes source files, not build output, installed dependencies or a package manager's committed bundle", () => {
    expect(["src/a.cjs", "lib/b.ts", "tools/release.sh"].filter(isCodePath)).toHaveLength(3);
    const generated = [".yarn/releases/yarn-4.1.0.cjs", ".yarn/plugins/x.cjs", "dist/x.js", "a/node_modules/b.js"];
    expect(generated.filter(isCodePath)).toEqual([]);
  });
});
