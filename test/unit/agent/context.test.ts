import { describe, expect, it } from "vitest";
import { gatherContext, mentionedIdentifiers, namedPaths } from "../../../src/agent/context.js";
import { extractDefinitions } from "../../../src/agent/definitions.js";
import { buildRepoMap, rankDefinitions, renderTree } from "../../../src/agent/repo-map.js";
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
  it("detects pytest projects with a unittest fallback", () => {
    expect(detectTestCommand(facts({ "pkg/calc.py": "", "tests/test_calc.py": "" }))).toEqual({
      kind: "python",
      pytest: "python3 -m pytest",
      fallback: "python3 -m unittest discover -s tests",
      probe: 'python3 -c "import pytest"',
    });
    expect(detectTestCommand(facts({ "pyproject.toml": "[tool.pytest.ini_options]\n" })).kind).toBe("python");
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

describe("context gathering", () => {
  const paths = ["src/parser.ts", "src/lexer.ts", "src/big.ts", "docs/guide.md", "lib/parser.ts"];
  it("finds named paths by full path, suffix or unique file name", () => {
    expect(namedPaths("See src/lexer.ts and guide.md, also parser.ts", paths)).toEqual([
      "src/lexer.ts",
      "docs/guide.md",
    ]);
    expect(namedPaths("fix ./lib/parser.ts.", paths)).toEqual(["lib/parser.ts"]);
  });
  it("picks identifier-shaped words and known definitions", () => {
    expect(
      mentionedIdentifiers("The `parse_args` helper and readConfig() break; tokenize too", new Set(["tokenize"])),
    ).toEqual(["parse_args", "readConfig", "tokenize"]);
  });
  it("includes named and mentioning files within budget and records what did not fit", async () => {
    const files = new Map([
      ["src/parser.ts", "export function parseAll() { return tokenize(); }\n"],
      ["src/lexer.ts", "export function tokenize() {}\n"],
      ["src/big.ts", `// tokenize\n${"x".repeat(50_000)}`],
      ["docs/guide.md", "guide"],
      ["lib/parser.ts", "export const p = 1;\n"],
    ]);
    const context = await gatherContext({
      instruction: "tokenize() drops the last token; see src/parser.ts",
      paths,
      read: (wanted) => Promise.resolve(new Map(wanted.filter((p) => files.has(p)).map((p) => [p, files.get(p)!]))),
      grep: (words) => {
        const hits = new Map<string, number>();
        for (const [p, c] of files) if (words.some((w) => c.includes(w))) hits.set(p, 1);
        return Promise.resolve(hits);
      },
      fileTokens: 1000,
    });
    expect(context.words).toEqual(["tokenize"]);
    expect(context.files.map((f) => [f.path, f.why])).toEqual([
      ["src/parser.ts", "named"],
      ["src/lexer.ts", "mentions"],
    ]);
    expect(context.omitted).toEqual(["src/big.ts"]);
    expect(context.repoMap.text).toContain("src/lexer.ts:\n  1: export function tokenize()");
  });
  it("shows a window around the focus lines of a big file", async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join("\n");
    const context = await gatherContext({
      instruction: "rename this",
      focus: { path: "src/big.ts", startLine: 1000, endLine: 1001 },
      paths: ["src/big.ts"],
      read: (wanted) => Promise.resolve(new Map(wanted.map((p) => [p, big]))),
      grep: () => Promise.resolve(new Map()),
      fileTokens: 1000,
    });
    expect(context.files[0]).toMatchObject({ path: "src/big.ts", why: "focus", lines: { start: 940, end: 1061 } });
    expect(context.files[0]!.content.startsWith("line 940\n")).toBe(true);
  });
});
