import { describe, expect, it } from "vitest";
import type { LineOp } from "../../../src/core/edit.js";
import { parseText } from "../../../src/core/text.js";
import { FUZZY_BUDGET, FUZZY_MARGIN, FUZZY_THRESHOLD } from "../../../src/matcher/fuzzy.js";
import { locate } from "../../../src/matcher/ladder.js";
import { applyOps, lines, searchReplace } from "./helpers.js";

const body = [
  "function computeTotal(items) {",
  "  let total = 0;",
  "  for (const item of items) {",
  "    total += item.price * item.quantity;",
  "  }",
  "  return total;",
  "}",
];
const file = lines("// header", "", ...body, "", "export { computeTotal };");

describe("fuzzy rung", () => {
  it("has documented, sane constants", () => {
    expect(FUZZY_THRESHOLD).toBeGreaterThanOrEqual(0.85);
    expect(FUZZY_MARGIN).toBeGreaterThan(0);
    expect(FUZZY_BUDGET).toBeGreaterThan(1_000_000);
  });

  it("applies a 6-line block with one typo, keeping the file's bytes for context lines", () => {
    const search = body.slice(0, 6).join("\n").replace("item.quantity", "item.quantiy");
    const replace = search.replace("let total = 0;", "let total = 0; // sum");
    const applied = applyOps(file, searchReplace(search, replace));
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy", start: 2, end: 8 } } });
    if (applied.ok && applied.result.kind === "found") {
      expect(applied.result.match.similarity).toBeGreaterThan(0.95);
      // The typo was in a context line: the file's correct line survives.
      expect(applied.after).toBe(file.replace("let total = 0;", "let total = 0; // sum"));
    }
  });

  it("a drifted removed line is paired with the window's line and replaced", () => {
    const search = body.slice(1, 6).join("\n").replace("total += item.price", "total += item.prize");
    const replace = search.replace("total += item.prize * item.quantity;", "total += item.cost;");
    const applied = applyOps(file, searchReplace(search, replace));
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy" } } });
    expect(applied.ok && applied.after).toBe(
      file.replace("total += item.price * item.quantity;", "total += item.cost;"),
    );
  });

  const server = [
    "export function configure(app, port) {",
    "  app.use(logger({ level: 'info' }));",
    "  app.use(bodyParser.json({ limit: '1mb' }));",
    "  app.use(cors());",
    "  app.use(compression({ threshold: 1024 }));",
    "  app.use('/api', apiRouter);",
    "  app.use('/static', serveStatic('public'));",
    "  app.use(errorHandler({ verbose: false }));",
    "  app.set('trust proxy', true);",
    "  app.listen(port);",
    "}",
  ];
  const serverFile = lines("// server", ...server, "");

  it("a line of the file missing from the SEARCH, next to context, is kept", () => {
    const search = server.filter((l) => !l.includes("cors")).join("\n");
    const replace = search.replace("app.listen(port);", "app.listen(port, '0.0.0.0');");
    const applied = applyOps(serverFile, searchReplace(search, replace));
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy" } } });
    expect(applied.ok && applied.after).toBe(serverFile.replace("app.listen(port);", "app.listen(port, '0.0.0.0');"));
  });

  it("a context line the model invented covers nothing; the edit still lands", () => {
    const search = [...server.slice(0, 5), "  app.use(helmet());", ...server.slice(5)].join("\n");
    const replace = search.replace("app.set('trust proxy', true);", "app.set('trust proxy', 1);");
    const applied = applyOps(serverFile, searchReplace(search, replace));
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy" } } });
    expect(applied.ok && applied.after).toBe(serverFile.replace("'trust proxy', true", "'trust proxy', 1"));
  });

  it("a removed line with no counterpart in the file refuses", () => {
    const search = [...server.slice(0, 5), "  app.use(helmet());", ...server.slice(5)].join("\n");
    const replace = search.replace("  app.use(helmet());\n", "");
    const result = locate(parseText(serverFile), { ops: searchReplace(search, replace), hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") expect(result.note).toContain('app.use(helmet());" has no counterpart');
  });

  it("two near-identical functions are not resolved by a coin flip", () => {
    const twin = body.map((l) => l.replace("computeTotal", "computeSum"));
    const content = lines(...body, "", ...twin);
    const search = body.slice(1, 6).join("\n").replace("item.quantity", "item.qty");
    const result = locate(parseText(content), { ops: searchReplace(search, search + "\n// x"), hint: {} });
    expect(["ambiguous", "not-found"]).toContain(result.kind);
    if (result.kind === "ambiguous") expect(result.lines).toEqual([2, 10]);
  });

  it("a SEARCH line the file has verbatim in a look-alike block makes that block a rival place", () => {
    // The model quoted the header of one recipe and the last line of the next: the window around the header scores
    // best, but the block holding the quoted last line is nearly as similar, and the insertion would go elsewhere.
    const recipe = (target: string, header: string): string[] => [
      header,
      "\t$(CC) -o app main.c util.c network.c storage.c \\",
      `\t\t--target=${target}-release`,
      "",
    ];
    const content = lines(
      ...recipe("build", "build:"),
      ...recipe("install", "install: build"),
      ...recipe("clean", "clean:"),
    );
    const search = ["", "install: build", recipe("x", "")[1]!, "\t\t--target=clean-release"].join("\n");
    const replace = search.replace("install: build", "install: build\n\t@echo installing");
    const result = locate(parseText(content), { ops: searchReplace(search, replace), hint: {} });
    expect(result).toMatchObject({ kind: "ambiguous", lines: [4, 8] });
  });

  it("a SEARCH line taken for invented beside the added lines, found verbatim nearby, makes the insertion a guess", () => {
    // The model quoted the fixture line instead of the assertion before `});`: the best window pairs the fixture
    // line and the blank after it and takes `});` for invented, which puts the added line after the fixture line;
    // with `});` on the copy that ends the block above, the added line goes there. Two places: refused.
    const content = lines(
      'describe("read", () => {',
      '  it.todo("streams");',
      "});",
      "",
      'describe("parse", () => {',
      '  const input = readFixture("orders.csv", { encoding: "utf8", trim: true });',
      "",
      "  // The reader must keep quoted commas inside a field, as the format allows.",
      "  expect(parseCsv(input).rows).toHaveLength(3);",
      "});",
    );
    const ops: LineOp[] = [
      { op: "context", text: '  const input = readFixture("orders.csv", { encoding: "utf8", trim: true });' },
      { op: "context", text: "});" },
      { op: "add", text: "afterAll(cleanup);" },
      { op: "context", text: "" },
    ];
    expect(locate(parseText(content), { ops, hint: {} })).toMatchObject({ kind: "ambiguous", lines: [3, 6] });
  });

  const suite = [
    'describe("totals", () => {',
    "  const cart = loadCart({ currency: 'EUR', items: 3 });",
    "  expect(total(cart)).toBe(41.5);",
    "});",
    "",
    'describe("taxes", () => {',
    '  it.todo("rounds");',
    "});",
  ];

  it("two SEARCH lines in the file's opposite order beside an insertion: refused, not placed between them", () => {
    // Read with the assertion in place, the test goes before `});`; read with `});` in place, after it.
    const ops: LineOp[] = [
      { op: "context", text: suite[1]! },
      { op: "context", text: "});" },
      { op: "context", text: suite[2]! },
      { op: "add", text: '  it.todo("discounts");' },
    ];
    const result = locate(parseText(lines(...suite)), { ops, hint: {} });
    expect(result.kind).not.toBe("found");
    if (result.kind === "not-found") expect(result.note).toMatch(/"\}\);" is also line 4 of the file/);
  });

  it("a SEARCH line that joins a file line and the next one stands for both: lines added after it follow both", () => {
    const ops: LineOp[] = [
      { op: "context", text: suite[1]! },
      { op: "context", text: `${suite[2]!} });` },
      { op: "add", text: "" },
      { op: "add", text: 'describe("refunds", () => {});' },
    ];
    const applied = applyOps(lines(...suite), ops);
    expect(applied).toMatchObject({ ok: true, result: { match: { strategy: "fuzzy" } } });
    if (applied.ok) {
      expect(applied.after).toBe(lines(...suite.slice(0, 4), "", 'describe("refunds", () => {});', ...suite.slice(4)));
    }
  });

  it("a drifted SEARCH line the file has verbatim nearby places nothing: the other lines' second copy makes it ambiguous", () => {
    // Two option blocks end alike; the model quoted the first block's lines but ended with the response line that
    // follows the second, which the second's own response line resembles. Without that line, both blocks fit.
    const content = lines(
      "export type FirstOptions = {",
      "    clientId: string;",
      "    token: string;",
      "};",
      "export type SecondOptions = {",
      "    clientId: string;",
      "    token: string;",
      "};",
      'export type FirstResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {',
      "    authentication: FirstAuthentication;",
      "};",
      'export type SecondResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {',
      "    authentication: SecondAuthentication;",
      "};",
    );
    const ops: LineOp[] = [
      { op: "remove", text: "    clientId: string;" },
      { op: "add", text: "    clientIdentifier: string;" },
      { op: "context", text: "    token: string;" },
      { op: "context", text: "};" },
      {
        op: "context",
        text: 'export type SecondResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {',
      },
    ];
    expect(locate(parseText(content), { ops, hint: {} })).toMatchObject({ kind: "ambiguous", lines: [2, 6] });
  });

  it("an insertion placed only by a look-alike line one line past a line the SEARCH left out is refused", () => {
    // The SEARCH ends with `const secondary = {` where the file has `};` then `const second = {`: the added line
    // would follow the look-alike, though the model may have meant the line it left out.
    const content = lines(
      "const first = {",
      "    stringify(node) {",
      "        const num = Number(node.value);",
      "        return isFinite(num) ? num.toExponential() : String(num);",
      "    }",
      "};",
      "const second = {",
      "    identify: (value) => typeof value === 'number',",
      "};",
    );
    const ops: LineOp[] = [
      { op: "context", text: "    stringify(node) {" },
      { op: "context", text: "        const num = Number(node.value);" },
      { op: "context", text: "        return isFinite(num) ? num.toExponential() : String(num);" },
      { op: "context", text: "    }" },
      { op: "context", text: "const secondary = {" },
      { op: "add", text: "log();" },
    ];
    const result = locate(parseText(content), { ops, hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") expect(result.note).toMatch(/only resembles line 7 of the file/);
  });

  it("a SEARCH longer than the whole file by two lines or more is not found, with no window to compare", () => {
    const search = body.join("\n").replace("item.quantity", "item.qty");
    const short = parseText(body.slice(0, 5).join("\n"));
    const result = locate(short, { ops: searchReplace(search, `${search}\n// x`), hint: {} });
    expect(result.kind).toBe("not-found");
  });

  it("below the threshold: not found, with the similarity in the note", () => {
    const search = [
      "function computeTotal(items) {",
      "  let sum = 0;",
      "  for (const item of items) {",
      "    sum += item.cost * item.quantity;",
      "  }",
      "  return sum;",
    ].join("\n");
    const result = locate(parseText(file), { ops: searchReplace(search, "x"), hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") {
      expect(result.note).toMatch(/most similar region \(lines 3-8\) is 8\d\.\d % similar; a fuzzy match needs 90 %/);
      expect(result.nearest).toMatchObject({ why: "similar", startLine: 1 });
    }
  });

  it("far from everything: not found, saying nothing came close", () => {
    const search = [
      "function computeTotal(things) {",
      "  let sum = 0;",
      "  for (const item of items) {",
      "    sum += thing.cost * thing.count;",
      "  }",
      "  return total;",
    ].join("\n");
    const result = locate(parseText(file), { ops: searchReplace(search, "x"), hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") {
      expect(result.note).toMatch(/no region of the file is 85 % similar .*needs 90 %/);
      expect(result.nearest.lines.length).toBeGreaterThan(0);
    }
  });

  it("is skipped for short SEARCH text", () => {
    const result = locate(parseText(lines("let a = 1;", "let b = 2;")), {
      ops: searchReplace("let a = 2;\nlet b = 2;", "x"),
      hint: {},
    });
    expect(result.kind).toBe("not-found");
  });

  it("refuses a flattened copy even when the text is nearly identical", () => {
    const nested = lines(
      "def process(records):",
      "    for record in records:",
      "        if record.valid:",
      "            store(record)",
      "            notify(record.owner)",
      "    return len(records)",
    );
    const search = [
      "for record in records:",
      "    if record.valid:",
      "        store(record)",
      "    notify(record.ownr)",
      "return len(records)",
    ].join("\n");
    const result = locate(parseText(nested), { ops: searchReplace(search, search.replace("store", "save")), hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") expect(result.note).toMatch(/nested differently/);
  });

  it("stops at the budget and says so", () => {
    const search = body
      .slice(0, 6)
      .join("\n")
      .replace("total += item.price", "total += item.prize")
      .replace("return total;", "return totl;");
    const result = locate(parseText(file), { ops: searchReplace(search, "x"), hint: {} }, { fuzzyBudget: 1 });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") expect(result.note).toMatch(/budget/);
  });

  it("a 100,000-line file with a failing lookup: not found, with nearest lines", () => {
    const big = Array.from({ length: 100_000 }, (_, i) => `const value${i} = compute(${i}, "label ${i % 97}");`);
    const content = lines(...big);
    const search = [
      "function neverThere(alpha, beta) {",
      "  const gamma = alpha * beta;",
      "  return gamma + compute(42, 'x');",
      "}",
    ].join("\n");
    const file100k = parseText(content);
    const result = locate(file100k, { ops: searchReplace(search, "x"), hint: {} });
    expect(result.kind).toBe("not-found");
    if (result.kind === "not-found") {
      expect(result.nearest.fileLines).toBe(100_000);
      expect(result.nearest.lines.length).toBeGreaterThan(0);
    }
    // A second lookup on the same file object reuses the memoised keys and must agree.
    const near =
      'const value500 = compute(500, "label 15");\nconst value501 = compute(501, "label 16");\nconst value502 = compute(502, "label 17");\nconst value503 = compute(503, "label 18");';
    const typo = near.replace("value501 = compute(501", "value501 = compte(501");
    const second = locate(file100k, { ops: searchReplace(typo, "x"), hint: {} });
    expect(second).toMatchObject({ kind: "found", match: { strategy: "fuzzy", start: 500, end: 504 } });
  });

  describe("a line number and two near-identical places", () => {
    /** Two functions that differ only in their number; the SEARCH copies the first with a typo. */
    const fn = (n: number): string[] => [
      `/** Renders the user for step ${n}; returns its id. */`,
      `export async function renderUser${n}(user: number, limit: number): Promise<number> {`,
      "  let total = 0;",
      "  if (total > limit) {",
      "    return limit;",
      "  }",
      "  return total;",
      "}",
    ];
    const twins = parseText(lines(...fn(2846), "", ...fn(6053), ""));
    const typo = fn(2846)
      .map((l) => l.replace("let total", "lex total"))
      .join("\n");
    const ops = searchReplace(typo, typo.replace("lex total = 0", "let total = 1"));

    it("is ambiguous without it: the other place is within the margin", () => {
      expect(locate(twins, { ops, hint: {} })).toMatchObject({ kind: "ambiguous", lines: [1, 10] });
    });

    it("lands where the line number names the more similar place exactly", () => {
      expect(locate(twins, { ops, hint: { line: 1 } })).toMatchObject({
        kind: "found",
        match: { strategy: "fuzzy", start: 0, end: 8 },
      });
    });

    it("stays ambiguous where it names the less similar place, or the places are as similar", () => {
      expect(locate(twins, { ops, hint: { line: 10 } }).kind).toBe("ambiguous");
      const neither = searchReplace(typo.replaceAll("2846", "0000"), "x");
      expect(locate(twins, { ops: neither, hint: { line: 1 } }).kind).toBe("ambiguous");
    });
  });
});
