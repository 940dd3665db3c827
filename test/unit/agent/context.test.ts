import { describe, expect, it } from "vitest";
import { namedPaths } from "../../../src/agent/context/files.js";
import { gatherContext, type ContextInput } from "../../../src/agent/context/gather.js";
import { extractDefinitions } from "../../../src/agent/context/definitions.js";
import { buildRepoMap, rankDefinitions, renderTree } from "../../../src/agent/context/repo-map.js";
import { detectTestCommand } from "../../../src/agent/test-command.js";

describe("definition extractor", () => {
  it("finds definitions in TS/JS, Python, Go, Rust and Java", () => {
    const names = (path: string, text: string): string[] => extractDefinitions(path, text).map((d) => d.name);
    expect(
      names(
        "a.ts",
        "export function parse(x) {}\nexport class Lexer {\n  next(): Token {\n  if (x) {\n}\nexport type Token = string;\nexport const LIMIT = 3;\n",
      ),
    ).toEqual(["parse", "Lexer", "next", "Token", "LIMIT"]);
    expect(
      names("a.py", "class Stack:\n    def push(self, x):\n        pass\nasync def main():\nMAX_SIZE = 10\n"),
    ).toEqual(["Stack", "push", "main", "MAX_SIZE"]);
    expect(names("a.go", "func (s *Server) Serve() error {\ntype Server struct {\nfunc main() {\n")).toEqual([
      "Serve",
      "Server",
      "main",
    ]);
    expect(
      names("a.rs", "pub fn run() {}\npub(crate) struct Config {\nimpl Config {\n    pub async fn load() {}\n"),
    ).toEqual(["run", "Config", "load"]);
    expect(
      names("A.java", "public class App {\n  public static void main(String[] args) {\n  private int count() {\n"),
    ).toEqual(["App", "main", "count"]);
    expect(names("README.md", "function x() {}")).toEqual([]);
  });
});

describe("repo map", () => {
  const contents = new Map([
    ["src/core.ts", "export function parseConfig() {}\nexport function rarelyUsed() {}\n"],
    ["src/a.ts", "import { parseConfig } from './core';\nparseConfig();\n"],
    ["src/b.ts", "import { parseConfig } from './core';\n"],
    ["src/c.ts", "import { rarelyUsed } from './core';\nexport function helper() {}\n"],
  ]);
  it("ranks definitions by how many other files reference them", () => {
    const ranked = rankDefinitions(contents);
    expect(ranked.map((d) => [d.name, d.score])).toEqual([
      ["parseConfig", 2],
      ["rarelyUsed", 1],
      ["helper", 0],
    ]);
  });
  it("ranks names the instruction mentions first", () => {
    expect(rankDefinitions(contents, new Set(["helper"]))[0]!.name).toBe("helper");
  });
  it("renders within budget, most referenced first", () => {
    const map = buildRepoMap({ paths: [...contents.keys()], contents, budgetChars: 2000 });
    expect(map.text).toContain("src/core.ts:\n  1: export function parseConfig()");
    expect(map.text.indexOf("src/core.ts:")).toBeLessThan(map.text.indexOf("src/c.ts:"));
    const tiny = buildRepoMap({ paths: [...contents.keys()], contents, budgetChars: 300 });
    expect(tiny.text.length).toBeLessThanOrEqual(300);
    expect(tiny.files[0]).toBe("src/core.ts");
  });
  it("summarises a tree that does not fit as folders with counts", () => {
    const paths = Array.from({ length: 500 }, (_, i) => `pkg/mod${i % 5}/file${i}.ts`).concat(["README.md"]);
    const tree = renderTree(paths, 400);
    expect(tree).toBe(
      "README.md\npkg/mod0/ (100 files)\npkg/mod1/ (100 files)\npkg/mod2/ (100 files)\npkg/mod3/ (100 files)\npkg/mod4/ (100 files)",
    );
  });
});

describe("test command detection", () => {
  const facts = (files: Record<string, string>) => ({ paths: Object.keys(files), read: (p: string) => files[p] });
  it("prefers an npm test script, ignoring npm's placeholder", () => {
    expect(
      detectTestCommand(facts({ "package.json": '{"scripts":{"test":"vitest run"}}', Makefile: "test:\n" })),
    ).toEqual({
      kind: "command",
      command: "npm test",
    });
    expect(
      detectTestCommand(
        facts({ "package.json": '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }),
      ).kind,
    ).toBe("none");
  });
  it("runs npm's pretest, test and posttest as steps, the tests the main one", () => {
    const npm = (scripts: Record<string, string>) =>
      detectTestCommand(facts({ "package.json": JSON.stringify({ scripts }) }));
    expect(npm({ test: "tape test/*.js", pretest: "npm run lint", posttest: "npx npm audit" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [
        { command: "npm run pretest", main: false },
        { command: "npm test --ignore-scripts", main: true },
        { command: "npm run posttest", main: false },
      ],
    });
    expect(npm({ test: "tape", posttest: "aud --production" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [
        { command: "npm test --ignore-scripts", main: true },
        { command: "npm run posttest", main: false },
      ],
    });
    // Scripts that are not strings, or empty, are not steps.
    expect(npm({ test: "tape", pretest: "", posttest: 3 } as unknown as Record<string, string>)).toEqual({
      kind: "command",
      command: "npm test",
    });
  });
  it("runs a test script that chains checks around one test runner part by part, as npm would run each", () => {
    const npm = (scripts: Record<string, string>) =>
      detectTestCommand(facts({ "package.json": JSON.stringify({ scripts }) }));
    expect(npm({ test: "xo && c8 ava && tsd", posttest: "npm audit" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [
        { command: "npm exec -c 'xo'", main: false },
        { command: "npm exec -c 'c8 ava'", main: true },
        { command: "npm exec -c 'tsd'", main: false },
        { command: "npm run posttest", main: false },
      ],
    });
    expect(npm({ test: "eslint 'src/**/*.js' && NODE_ENV=test mocha" })).toMatchObject({
      steps: [
        { command: String.raw`npm exec -c 'eslint '\''src/**/*.js'\'''`, main: false },
        { command: "npm exec -c 'NODE_ENV=test mocha'", main: true },
      ],
    });
    expect(npm({ test: "node --test && npm run check:types", "check:types": "tsc" })).toMatchObject({
      steps: [
        { command: "npm exec -c 'node --test'", main: true },
        { command: "npm run check:types", main: false },
      ],
    });
    // No runner, or a chain the shell reads otherwise: one command.
    for (const test of ["npm run lint && npm run unit", "xo || true && ava", "lint; mocha"])
      expect(npm({ test }), test).toEqual({ kind: "command", command: "npm test" });
  });
  it("runs what comes before a `|| true` that makes the test script pass whatever its tests say", () => {
    const npm = (scripts: Record<string, string>) =>
      detectTestCommand(facts({ "package.json": JSON.stringify({ scripts }) }));
    expect(npm({ test: "mocha || true" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [{ command: "npm exec -c 'mocha'", main: true }],
    });
    expect(npm({ test: "eslint . && mocha --exit || exit 0", posttest: "npm audit" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [
        { command: "npm exec -c 'eslint .'", main: false },
        { command: "npm exec -c 'mocha --exit'", main: true },
        { command: "npm run posttest", main: false },
      ],
    });
    // A pipe into tee: the pipeline's status is tee's.
    expect(npm({ test: "jest --ci 2>&1 | tee test-results.log" })).toEqual({
      kind: "command",
      command: "npm test",
      steps: [{ command: "npm exec -c 'jest --ci 2>&1'", main: true }],
    });
  });
  it("runs a Yarn Berry Plug'n'Play project's tests with yarn, which alone can run its scripts", () => {
    const files = (yarnrc: string | undefined, packageManager = "yarn@4.1.0") => ({
      "package.json": JSON.stringify({ packageManager, scripts: { pretest: "tsc", test: "vitest run" } }),
      "yarn.lock": "",
      ...(yarnrc === undefined ? {} : { ".yarnrc.yml": yarnrc }),
    });
    expect(detectTestCommand(facts(files("yarnPath: .yarn/releases/yarn-4.1.0.cjs\n")))).toEqual({
      kind: "command",
      command: "yarn test",
    });
    expect(detectTestCommand(facts(files("nodeLinker: pnp\n")))).toMatchObject({ command: "yarn test" });
    // With node_modules (or Yarn 1), npm runs the script and its pre/post steps as for any package.
    expect(detectTestCommand(facts(files("nodeLinker: node-modules\n")))).toMatchObject({ command: "npm test" });
    expect(detectTestCommand(facts(files(undefined, "yarn@1.22.19")))).toMatchObject({ command: "npm test" });
  });
  it("detects pytest projects with a unittest fallback", () => {
    expect(detectTestCommand(facts({ "pkg/calc.py": "", "tests/test_calc.py": "" }))).toEqual({
      kind: "python",
      pytest: "python3 -m pytest --continue-on-collection-errors",
      fallback: "python3 -m unittest discover -s tests",
      probe: 'python3 -c "import pytest"',
      added: [],
    });
    expect(detectTestCommand(facts({ "pyproject.toml": "[tool.pytest.ini_options]\n" })).kind).toBe("python");
  });
  it("adds the linters a Python project configures after its tests, Ruff first", () => {
    const suite = { "pkg/calc.py": "", "tests/test_calc.py": "" };
    const added = (files: Record<string, string>) =>
      (detectTestCommand(facts({ ...suite, ...files })) as { added?: { command: string }[] }).added?.map(
        (check) => check.command,
      );
    expect(added({ "pyproject.toml": "[tool.ruff]\nline-length = 100\n" })).toEqual(["ruff check"]);
    expect(added({ "pyproject.toml": "[tool.ruff.lint]\nselect = ['F']\n" })).toEqual(["ruff check"]);
    expect(added({ "ruff.toml": "", ".flake8": "[flake8]\n" })).toEqual([
      "ruff check",
      "flake8 --extend-exclude .venv",
    ]);
    expect(added({ "setup.cfg": "[metadata]\nname = calc\n\n[flake8]\nmax-line-length = 100\n" })).toEqual([
      "flake8 --extend-exclude .venv",
    ]);
    expect(added({ "pyproject.toml": "[tool.ruff]\n\n[tool.mypy]\nfiles = ['pkg']\n" })).toEqual([
      "ruff check",
      "mypy",
    ]);
    expect(added({ "mypy.ini": "[mypy]\nfiles = pkg\n" })).toEqual(["mypy"]);
    expect(added({ "setup.cfg": "[mypy]\nstrict = True\n" })).toEqual(["mypy"]);
    // The formatters, on every file, after the linters.
    expect(added({ "pyproject.toml": "[tool.isort]\nprofile = 'black'\n\n[tool.black]\n", ".flake8": "" })).toEqual([
      "flake8 --extend-exclude .venv",
      "black --check .",
      "isort --check-only .",
    ]);
    expect(added({ ".isort.cfg": "[settings]\n" })).toEqual(["isort --check-only ."]);
    expect(added({ "setup.cfg": "[tool:isort]\nline_length = 100\n" })).toEqual(["isort --check-only ."]);
    // A tool named in passing is not one configured.
    expect(
      added({ "pyproject.toml": "[tool.coverage]\n# like [tool.ruff]\n", "tox.ini": "[testenv]\ndeps = flake8\n" }),
    ).toEqual([]);
    // unittest and Django projects run them as steps after their tests.
    const tox = "[tox]\n\n[testenv]\ncommands = python -m unittest discover tests\n\n[flake8]\nexclude = docs\n";
    expect(detectTestCommand(facts({ ...suite, "tox.ini": tox }))).toEqual({
      kind: "command",
      command: "python3 -m unittest discover -s tests, then flake8 --extend-exclude .venv",
      steps: [
        { command: "python3 -m unittest discover -s tests", main: true },
        { command: "flake8 --extend-exclude .venv", main: false, added: true, checks: "lint" },
      ],
    });
  });
  it("runs a Django project's tests through manage.py, unless it configures pytest", () => {
    const django = { "manage.py": "", "polls/models.py": "", "polls/tests.py": "", "requirements.txt": "Django\n" };
    expect(detectTestCommand(facts(django))).toEqual({ kind: "command", command: "python3 manage.py test" });
    const withPytest = { ...django, "pytest.ini": "[pytest]\nDJANGO_SETTINGS_MODULE = site.settings\n" };
    expect(detectTestCommand(facts(withPytest)).kind).toBe("python");
  });
  it("runs unittest when the project's tox.ini or Makefile says it does, and has no pytest config", () => {
    const suite = { "pkg/blocks.py": "", "tests/test_blocks.py": "" };
    const tox =
      "[tox]\nenvlist = py312\n\n[testenv]\ncommands =\n    coverage run --source=pkg -m unittest discover {toxinidir}/tests\n    coverage report\n";
    expect(detectTestCommand(facts({ ...suite, "tox.ini": tox }))).toEqual({
      kind: "command",
      command: "python3 -m unittest discover -s tests",
    });
    const makefile = "build:\n\tpython -m build\n\ntest:\n\tcoverage run -m unittest discover tests\n";
    expect(detectTestCommand(facts({ ...suite, makefile })).kind).toBe("command");
    // Pytest named there, or configured, stays the runner.
    expect(
      detectTestCommand(facts({ ...suite, "tox.ini": tox.replace("-m unittest discover", "-m pytest") })).kind,
    ).toBe("python");
    expect(detectTestCommand(facts({ ...suite, "tox.ini": tox, "conftest.py": "" })).kind).toBe("python");
  });
  it("detects go, cargo and make", () => {
    expect(detectTestCommand(facts({ "go.mod": "" }))).toEqual({ kind: "command", command: "go test ./..." });
    expect(detectTestCommand(facts({ "Cargo.toml": "" }))).toEqual({ kind: "command", command: "cargo test" });
    expect(detectTestCommand(facts({ Makefile: "build:\n\ttrue\ntest: build\n\t./t\n" }))).toEqual({
      kind: "command",
      command: "make test",
    });
    expect(detectTestCommand(facts({ Makefile: "build:\n", "a.c": "" })).kind).toBe("none");
  });
});

/** A tree in memory with the ports the gathering uses (term counts as git grep -o -i -F would give them). */
function memoryInput(files: Record<string, string>, extra: Partial<ContextInput> = {}): ContextInput {
  const map = new Map(Object.entries(files));
  return {
    instruction: "",
    paths: [...map.keys()],
    read: (wanted) => Promise.resolve(new Map(wanted.filter((p) => map.has(p)).map((p) => [p, map.get(p)!]))),
    termCounts: (terms) => {
      const counts = new Map<string, Map<string, number>>();
      for (const [path, content] of map) {
        const perFile = new Map<string, number>();
        for (const term of terms) {
          const n = content.toLowerCase().split(term).length - 1;
          if (n > 0) perFile.set(term, n);
        }
        if (perFile.size > 0) counts.set(path, perFile);
      }
      return Promise.resolve(counts);
    },
    sizes: () => Promise.resolve(new Map([...map].map(([p, c]) => [p, c.length]))),
    ...extra,
  };
}

describe("context gathering", () => {
  const paths = ["src/parser.ts", "src/lexer.ts", "src/big.ts", "docs/guide.md", "lib/parser.ts"];
  it("finds named paths by full path, suffix or unique file name", () => {
    expect(namedPaths("See src/lexer.ts and guide.md, also parser.ts", paths)).toEqual([
      "src/lexer.ts",
      "docs/guide.md",
    ]);
    expect(namedPaths("fix ./lib/parser.ts.", paths)).toEqual(["lib/parser.ts"]);
  });

  it("gives the named file, then the best-ranked ones within budget, a huge one as an excerpt", async () => {
    // Bigger than even the most relevant source may be shown whole (160,000 characters).
    const big = Array.from({ length: 30_000 }, (_, i) =>
      i === 2000 ? "function tokenize(last) { drops(token); }" : `filler line ${i}`,
    );
    const input = memoryInput(
      {
        "src/parser.ts": "export function parseAll() { return tokenize(); }\n",
        "src/lexer.ts": "export function tokenize() {}\n// tokenize splits the text, token by token\n",
        "src/big.ts": big.join("\n"),
        "docs/guide.md": "guide",
        "lib/parser.ts": "export const p = 1;\n",
      },
      { instruction: "tokenize() drops the last token; see src/parser.ts", fileTokens: 1000 },
    );
    const context = await gatherContext(input);
    expect(context.words).toEqual(["tokenize", "tokeniz", "drop", "last", "token"]);
    // The huge file defines `tokenize` too, and holds more of the words: it ranks first.
    expect(context.files.map((f) => [f.path, f.why])).toEqual([
      ["src/parser.ts", "named"],
      ["src/big.ts", "ranked"],
      ["src/lexer.ts", "ranked"],
    ]);
    // Too big whole: the region where the terms are, with its line numbers.
    expect(context.files[1]!.lines).toEqual({ start: 1941, end: 2061 });
    expect(context.files[1]!.content).toContain("function tokenize(last)");
    expect(context.repoMap.text).toContain("src/lexer.ts:\n  1: export function tokenize()");

    // Over budget: the most relevant sources are still shown whole when they are not huge; the rest is listed.
    const tiny = await gatherContext({ ...input, fileTokens: 30 });
    expect(tiny.files.map((f) => f.path)).toEqual(["src/parser.ts", "src/lexer.ts"]);
    expect(tiny.omitted).toEqual(["src/big.ts"]);
  });

  it("ranks a module too big for the map by what it defines: the class a request names", async () => {
    const core = Array.from({ length: 8000 }, (_, i) => `def helper_${i}(x):\n    return x`);
    core[5000] =
      'class QuotedString(Token):\n    def __init__(self, quote_char=""):\n        self.quote_char = quote_char';
    const files = {
      "pkg/core.py": core.join("\n"),
      "pkg/helpers.py":
        "def quoted(s):\n" +
        "    # Wraps a quote: multi-char quote_char values, whitespace kept, strip nothing.\n".repeat(4) +
        "    return s\n",
      "pkg/util.py": "def strip_quotes(s):\n    return s.strip('\"')\n",
    };
    const context = await gatherContext(
      memoryInput(files, { instruction: "QuotedString strips whitespace from its multi-char quote_char" }),
    );
    expect(files["pkg/core.py"].length).toBeGreaterThan(100_000);
    const shown = context.files.find((f) => f.path === "pkg/core.py");
    expect(shown?.why).toBe("ranked");
    expect(shown?.content).toContain("class QuotedString(Token):");
  });

  it("shows a huge source in several parts, in file order, from what the other files left of the budget", async () => {
    // Bigger than even the most relevant source may be shown whole; the request's words in two places.
    const big = Array.from({ length: 30_000 }, (_, i) => `filler line ${i}`);
    big[25_000] = "export function tokenize(last) { return drops(token); }";
    big[3_000] = "// tokenize: keeps the last token";
    const files = {
      "src/big.ts": big.join("\n"),
      "src/lexer.ts": `export function tokenize() {}\n${"// tokenize splits the text, token by token\n".repeat(60)}`,
    };
    const input = memoryInput(files, { instruction: "tokenize() drops the last token", fileTokens: 2000 });
    const context = await gatherContext(input);
    expect(context.files.map((f) => [f.path, f.lines?.start])).toEqual([
      ["src/big.ts", 2941],
      ["src/big.ts", 24941],
      ["src/lexer.ts", undefined],
    ]);
    // Room for one part only once the whole file is in: the other part is left out, not the file.
    const tight = await gatherContext({ ...input, fileTokens: 1600 });
    expect(tight.files.map((f) => [f.path, f.lines?.start])).toEqual([
      ["src/big.ts", 24941],
      ["src/lexer.ts", undefined],
    ]);
  });

  it("ranks the source a matching test imports above the test, and follows a stack trace to its file and line", async () => {
    const input = memoryInput({
      "lib/flags.js": "module.exports = function parse(args) { return {}; };\n",
      "lib/util.js": "exports.noop = () => {};\n",
      "test/flags-parsing.test.js": 'const parse = require("../lib/flags");\ntest("boolean flags", () => parse([]));\n',
      "README.md": "# flags\n",
    });
    const context = await gatherContext({
      ...input,
      instruction: "boolean flags parsing is wrong",
      extra: "TypeError: x is undefined\n    at parse (/home/someone/work/flags/lib/util.js:1:20)\n",
    });
    expect(context.files.map((f) => [f.path, f.why, f.detail])).toEqual([
      ["lib/util.js", "trace", "line 1"],
      ["lib/flags.js", "ranked", "matches flag, pars"],
      ["test/flags-parsing.test.js", "ranked", "a test matching boolean, flag, pars"],
    ]);
  });

  it("shows the code a matching tests.js exercises, saying so, when the request's words are only in the test", async () => {
    const input = memoryInput({
      "index.js": "module.exports = function (val) { return /^(-?\\d*\\.?\\d+) *(ms|s)?$/i.exec(val); };\n",
      "tests.js": 'const ms = require("./");\nit("parses negative decimals", () => ms("-10.5s"));\n',
      "package.json": '{ "name": "ms", "main": "index.js" }\n',
    });
    const context = await gatherContext({ ...input, instruction: "Fixed negative decimals less than -10" });
    expect(context.files.map((f) => [f.path, f.why, f.detail])).toEqual([
      ["index.js", "ranked", "what tests.js tests"],
      ["tests.js", "ranked", "a test matching negativ, decimal"],
    ]);
  });

  it("shows the entry file when the request's words match no code, and only then", async () => {
    const files = {
      "index.js": "module.exports = (input) => input.replace(/[_-]+(\\w)/g, (_, c) => c.toUpperCase());\n",
      "index.d.ts": "declare function camelCase(input: string): string;\n",
      "scripts/release.js": "console.log('release');\n",
      "test.js": 'test("foo-bar", () => {});\n',
    };
    const vague = await gatherContext({
      ...memoryInput(files),
      instruction: "Fix regression with how numbers are treated",
    });
    expect(vague.files.map((f) => [f.path, f.detail])).toEqual([
      ["index.js", "an entry file (nothing matched the request's words)"],
    ]);
    const matched = await gatherContext({ ...memoryInput(files), instruction: "the release script logs twice" });
    expect(matched.files.map((f) => f.path)).not.toContain("index.js");
  });

  it("shows the code a matching declaration file declares", async () => {
    const files = {
      "index.js": "module.exports = (text) => text.replace(/([A-Z]+)([A-Z][a-z]+)/g, '$1 $2');\n",
      "index.d.ts": "/** Handles acronyms and separators. */\ndeclare function slugify(text: string): string;\n",
      "test.js": 'test("APIs", () => {});\n',
    };
    const context = await gatherContext({ ...memoryInput(files), instruction: "Fix handling of plural acronyms" });
    expect(context.files.map((f) => [f.path, f.detail])).toEqual([
      ["index.d.ts", "matches handl, acronym"],
      ["index.js", "what index.d.ts declares"],
    ]);
  });

  it("shows the package's declaration files when the request is about its types, which they share no word with", async () => {
    const files = {
      "package.json": JSON.stringify({
        name: "deep",
        types: "index.d.ts",
        exports: { "./lite": { types: "./lite.d.ts" } },
      }),
      "index.d.ts": "declare module 'deep' {\n  export function equal(a: any, b: any): boolean;\n}\n",
      "lite.d.ts": "declare module 'deep/lite' {\n  export function equal(a: any, b: any): boolean;\n}\n",
      "other.d.ts": "export {};\n",
      "src/index.js": "export function equal(foo, bar) {\n  return foo === bar;\n}\n",
    };
    const shown = async (instruction: string): Promise<string[]> =>
      (await gatherContext({ ...memoryInput(files), instruction })).files.map((f) => f.path);
    for (const instruction of [
      "fix(types): provide own d.ts per mode",
      "The typings of equal are wrong for the lite entry",
      "Update the type definitions: each entry declares its own module",
    ]) {
      expect((await shown(instruction)).slice(0, 2), instruction).toEqual(["index.d.ts", "lite.d.ts"]);
    }
    // Values of several types are not the package's types.
    const values = await gatherContext({
      ...memoryInput(files),
      instruction: "equal should handle all types of input",
    });
    expect(values.files.map((f) => f.detail)).not.toContain(
      "the package's type declarations (the request is about types)",
    );
  });

  it("puts the failing tests' files and the sources they import first when the baseline fails", async () => {
    const input = memoryInput({
      "src/mean.py": "def mean(values):\n    return sum(values) / (len(values) - 1)\n",
      "src/other.py": "def other():\n    pass\n",
      "tests/test_stats.py": "from src.mean import mean\n\ndef test_mean():\n    assert mean([2, 4, 6]) == 4\n",
    });
    const failures = [
      { name: "tests/test_stats.py::test_mean", text: "tests/test_stats.py:4: AssertionError\nE   assert 6.0 == 4" },
    ];
    const context = await gatherContext({ ...input, instruction: "make it right" }, failures);
    expect(context.files.map((f) => [f.path, f.why])).toEqual([
      ["tests/test_stats.py", "failing-test"],
      ["src/mean.py", "imported"],
    ]);
  });

  it("shows code a failure's frames point into as a trace, not as a failing test", async () => {
    const input = memoryInput({
      "lib/errors.js": "export class HttpError extends Error {}\n",
      "test/fetch.test.js": 'import { HttpError } from "../lib/errors.js";\ntest("fails offline", () => {});\n',
    });
    const failures = [
      {
        name: "fails offline",
        text: "Error: getaddrinfo EAI_AGAIN\n    at new HttpError (lib/errors.js:1:1)\n    at test/fetch.test.js:2:1",
      },
    ];
    const context = await gatherContext({ ...input, instruction: "make it right" }, failures);
    expect(context.files.map((f) => [f.path, f.why])).toEqual([
      ["lib/errors.js", "trace"],
      ["test/fetch.test.js", "failing-test"],
    ]);
  });

  it("follows a compiled test's failure to its TypeScript source, and shows the source it is named after first", async () => {
    const imports = ["md5", "sha1", "v3", "v35", "v5"].map((n) => `import ${n} from "../${n}.js";`).join("\n");
    const input = memoryInput({
      "src/md5.ts": "export default function md5() {}\n",
      "src/sha1.ts": "export default function sha1() {}\n",
      "src/v3.ts": 'import v35 from "./v35.js";\nexport default function v3() { return v35(); }\n',
      "src/v5.ts": 'import v35 from "./v35.js";\nexport default function v5() { return v35(); }\n',
      "src/v35.ts": "export default function v35(buf?: Uint8Array, offset?: number) {}\n",
      "src/test/v35.test.ts": `${imports}\ntest("v3 throws RangeError", () => {});\n`,
    });
    const failures = [
      {
        name: "v3 throws RangeError",
        text: "location: 'dist-node/test/v35.test.js:89:5'\nerror: 'Missing expected exception (RangeError).'",
      },
    ];
    const context = await gatherContext({ ...input, instruction: "make it right" }, failures);
    expect(context.files.slice(0, 2).map((f) => [f.path, f.why])).toEqual([
      ["src/test/v35.test.ts", "failing-test"],
      ["src/v35.ts", "imported"],
    ]);
  });

  it("shows a failing test around its failure even when the code its frames recurse through took the budget", async () => {
    const filler = (n: number, word: string) =>
      Array.from({ length: n }, (_, i) => `// ${word} ${String(i)}`).join("\n");
    const input = memoryInput(
      {
        "lib/base.js": `${filler(400, "base: the schema is walked here again")}\nexport function validate() { return link(); }\n`,
        "test/link.js": `${filler(300, "case")}\ntest("reports link.depth", () => {\n  expect(error.code).to.equal("link.depth");\n});\n${filler(300, "more")}\n`,
      },
      { fileTokens: 1000 },
    );
    const failures = [
      {
        name: "reports link.depth",
        text: "Maximum call stack size exceeded\n    at validate (lib/base.js:401:30)\n    at test/link.js:302:3",
        file: "test/link.js",
      },
    ];
    const context = await gatherContext({ ...input, instruction: "make it right" }, failures);
    const test = context.files.find((f) => f.path === "test/link.js");
    expect(test?.why).toBe("failing-test");
    expect(test?.content).toContain('expect(error.code).to.equal("link.depth")');
    expect(test?.lines).toEqual({ start: 242, end: 362 });
    expect(context.omitted).not.toContain("test/link.js");
  });

  it("shows the source a failure names among a failing test's many imports", async () => {
    const names = ["body", "headers", "request", "response", "server"];
    const imports = names.map((n) => `import ${n} from "../src/${n}.js";`).join("\n");
    const input = memoryInput({
      ...Object.fromEntries(names.map((n) => [`src/${n}.js`, `export default function ${n}() {}\n`])),
      "src/utils/is.js": "export const isDomain = (a, b) => a === b;\n",
      "test/main.js": `${imports}\nimport {isDomain, isSameProtocol} from '../src/utils/is.js';\ntest("x", () => {});\n`,
    });
    const loadError = {
      name: "test/main.js (failed to run)",
      text:
        "test/main.js:6\nimport {isDomain, isSameProtocol} from '../src/utils/is.js';\n" +
        "SyntaxError: The requested module '../src/utils/is.js' does not provide an export named 'isSameProtocol'",
    };
    const typeError = {
      name: "compares protocols",
      text: "TypeError: isSameProtocol is not a function\n    at test/main.js:7:3",
    };
    for (const failure of [loadError, typeError]) {
      const context = await gatherContext({ ...input, instruction: "make it right" }, [failure]);
      expect(context.files.slice(0, 2).map((f) => [f.path, f.why])).toEqual([
        ["test/main.js", "failing-test"],
        ["src/utils/is.js", "imported"],
      ]);
    }
  });

  it("shows the failing tests the request is about first, and tests that fail whatever it says after its code", async () => {
    const offline = ["fetch", "proxy", "retry", "socket"];
    const input = memoryInput({
      "src/format.js": "export function formatOffset(minutes, basic) { return '+05:30'; }\n",
      ...Object.fromEntries(offline.map((n) => [`src/${n}.js`, `export function ${n}() {}\n`])),
      ...Object.fromEntries(
        offline.map((n) => [`test/${n}.test.js`, `import { ${n} } from "../src/${n}.js";\ntest("${n}s", () => {});\n`]),
      ),
      "test/format.test.js": 'import { formatOffset } from "../src/format.js";\ntest("basic offset", () => {});\n',
    });
    const failures = [
      ...offline.map((n) => ({
        name: `${n}s over the network`,
        text: `Error: getaddrinfo EAI_AGAIN example.org\n    at test/${n}.test.js:2:1`,
      })),
      {
        name: "formats the offset without a colon in the basic format",
        text: "Expected: '+0530'\nReceived: '+05:30'\n    at test/format.test.js:2:1",
      },
    ];
    const context = await gatherContext(
      { ...input, instruction: "Fix the offset formatting for the basic format" },
      failures,
    );
    const order = context.files.map((f) => f.path);
    expect(order.slice(0, 2)).toEqual(["test/format.test.js", "src/format.js"]);
    // Two of the four offline tests come before the code, the other two after it.
    expect(order.indexOf("src/format.js")).toBeLessThan(order.indexOf("test/retry.test.js"));
    expect(order.indexOf("src/format.js")).toBeLessThan(order.indexOf("test/socket.test.js"));
    expect(order).toContain("test/fetch.test.js");
  });

  it("shows a window around the focus lines of a big file", async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join("\n");
    const context = await gatherContext(
      memoryInput(
        { "src/big.ts": big },
        { instruction: "rename this", focus: { path: "src/big.ts", startLine: 1000, endLine: 1001 }, fileTokens: 1000 },
      ),
    );
    expect(context.files[0]).toMatchObject({ path: "src/big.ts", why: "focus", lines: { start: 940, end: 1061 } });
    expect(context.files[0]!.content.startsWith("line 940\n")).toBe(true);
  });
});
