/** fuzzy: small drift in a long enough block applies (file bytes kept); paraphrase and ties are refused. */
import { editblock, fence, patchDoc, patchUpdate, reply, udiff } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, tree } from "./common.js";

const REFILL = `  private refill(): void {
    const current = this.now();
    const elapsed = (current - this.lastRefill) / 1000;
    if (elapsed <= 0) {
      return;
    }
    const added = elapsed * this.options.refillPerSecond;
    this.tokens = Math.min(this.options.capacity, this.tokens + added);
    this.lastRefill = current;
  }`;
const REFILL_TO = swap(
  REFILL,
  "    const added = elapsed * this.options.refillPerSecond;",
  "    const added = Math.min(elapsed, 3600) * this.options.refillPerSecond;",
);
const typoRefill = (t: string): string => swap(t, "(current - this.lastRefill)", "(current - this.lastRefil)");

const CSV_FN = S.exporters.split("\n").slice(8, 21).join("\n");
const CSV_TO = swap(
  CSV_FN,
  "        writer = csv.DictWriter(handle, fieldnames=sorted(rows[0]))",
  '        writer = csv.DictWriter(handle, fieldnames=sorted(rows[0]), extrasaction="ignore")',
);
const csvDrift = (t: string): string => swap(t, "return how many were written.", "return how many rows were written.");

const NUMBER_ARM = S.tokenizer.split("\n").slice(62, 71).join("\n");
const NUMBER_TO = [
  [
    "(chars[i].is_ascii_digit() || chars[i] == '.')",
    "(chars[i].is_ascii_digit() || chars[i] == '.' || chars[i] == '_')",
  ],
  ["let value = text.parse::<f64>()", "let value = text.replace('_', \"\").parse::<f64>()"],
].reduce((t, [a, b]) => swap(t, a!, b!), NUMBER_ARM);
const numberDrift = (t: string): string =>
  swap(
    t,
    "let text: String = chars[start..i].iter().collect();",
    "let text = chars[start..i].iter().collect::<String>();",
  );

const ordersPlaced = swap(
  S.orders,
  "        repository.save(order);\n        return order;",
  "        repository.save(order);\n        events.publish(new OrderPlaced(order.id()));\n        return order;",
);
const javaDrift = (t: string): string =>
  swap(
    t,
    "new Order(customerId, lines, total, Instant.now(clock))",
    "new Order(customerId, line, total, Instant.now(clock))",
  );

const cachePut = swap(
  S.cache,
  "\tc.items[key] = entry{value: value, expires: c.now().Add(c.ttl)}",
  "\texpires := c.now().Add(c.ttl)\n\tc.items[key] = entry{value: value, expires: expires}",
);
const goDrift = (t: string): string =>
  swap(
    t,
    "// Put stores value under key, evicting expired entries when full.",
    "// Put stores value under key, evicting stale entries when full.",
  );

const ROUTE_PATH = "lib/router/route.js";
const ROUTE = `export function matchRoute(path) {
  if (this.regexp.fastSlash) {
    this.params = {};
    this.path = '';
    return true;
  }

  const m = this.regexp.exec(path);

  if (!m) {
    this.params = undefined;
    return false;
  }
  this.path = m[0];
  return true;
}
`;

const USAGE_PATH = "docs/usage.md";
const USAGE = `# Usage

Run the generator from your project's root:

\`\`\`sh
tool init github.com/you/app
\`\`\`

## Adding commands

Each command gets a file of its own.
`;

const PARSE_TEST_PATH = "test/parse-csv.ts";
const PARSE_TEST = `describe("read", () => {
  it.todo("streams");
});

describe("parse", () => {
  const input = readFixture("orders.csv", { encoding: "utf8", trim: true });

  // The reader must keep quoted commas inside a field, as the format allows.
  expect(parseCsv(input).rows).toHaveLength(3);
});

describe("write", () => {
  it.todo("round-trips");
});
`;

const CACHE_DOC_PATH = "src/cache.ts";
const CACHE_DOC = `import type { Entry, ReadOptions } from "./types.js";

export class Cache {
  /**
   * Reads a value, loading it when it is missing.
   *
   * \`\`\`ts
   * const user = await cache.read('user:1')
   *
   * if (user.active) {
   *   audit.log(user.id)
   *   metrics.count('cache.hit')
   * }
   * \`\`\`
   *
   * With a loader for missing values:
   *
   * \`\`\`ts
   * const user = await cache.read('user:1', { load: fetchUser })
   *
   * if (user.active) {
   *   audit.log(user.id);
   *   metrics.count('cache.hit')
   * }
   * \`\`\`
   */
  async read(key: string, options?: ReadOptions): Promise<Entry | undefined> {
    return this.store.get(key) ?? (await options?.load?.(key));
  }
}
`;

const AMOUNT_TEST_PATH = "tests/test_amounts.py";
const AMOUNT_TEST = `from ledger.amounts import parse_amount


def test_parse_plain():
    assert parse_amount("12") == 1200
    assert parse_amount("12.50") == 1250


def test_parse_rejects_words():
    assert parse_amount("twelve euros and fifty cents") is None
    assert parse_amount("twelve euros and fifty cents") is None
    assert parse_amount("") is None
`;

const TOKEN_TYPES_PATH = "src/token-types.ts";
const TOKEN_TYPES = `export type FirstOptions = {
    clientId: string;
    token: string;
};
export type SecondOptions = {
    clientId: string;
    token: string;
};
export type FirstResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {
    authentication: FirstAuthentication;
};
export type SecondResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {
    authentication: SecondAuthentication;
};
`;

const TOTALS_PATH = "src/reports/totals.ts";
const totalsFor = (year: number): string => `export function totalsFor${year}(rows: readonly Row[]): Totals {
  const totals = emptyTotals();
  for (const row of rows) {
    if (row.year !== ${year}) continue;
    totals.net += row.net;
    totals.tax += row.tax;
  }
  return totals;
}
`;
const TOTALS = `import { emptyTotals, type Row, type Totals } from "./rows.js";

${totalsFor(2023)}
${totalsFor(2024)}`;

export const FUZZY: CaseSpec[] = [
  {
    id: "fuzzy-udiff-typo-twin-functions-line-number-names-the-closer",
    category: "fuzzy",
    format: "udiff",
    expect: "apply",
    note:
      "Two functions differ only in their year; the hunk copies the second with a typo, so the first is within " +
      "the fuzzy margin of it. Its line number names the closer one exactly: text and position agree, it lands " +
      "there (without the number, or naming the other one, it would be ambiguous).",
    before: tree({ [TOTALS_PATH]: TOTALS }),
    after: tree({
      [TOTALS_PATH]: swap(
        TOTALS,
        `    if (row.year !== 2024) continue;
    totals.net += row.net;`,
        `    if (row.year !== 2024) continue;
    totals.net += row.net - row.discount;`,
      ),
    }),
    reply: reply(
      "Net totals should subtract discounts in 2024:",
      fence(
        [
          `--- a/${TOTALS_PATH}`,
          `+++ b/${TOTALS_PATH}`,
          "@@ -13,8 +13,8 @@",
          " export function totalsFor2024(rows: readonly Row[]): Totals {",
          "   const totals = emptyTotals();",
          "   for (const row of rows) {",
          "     if (row.year !== 2024) continue;",
          "-    totals.net += row.net;",
          "+    totals.net += row.net - row.discount;",
          "     totals.tax += row.tx;",
          "   }",
          "   return totals;",
        ].join("\n"),
      ),
    ),
  },
  oneFile({
    id: "fuzzy-typo-in-context-ts",
    category: "fuzzy",
    note: "A one-letter typo in an unchanged line of a 10-line SEARCH; the fuzzy rung places it, the file keeps its spelling.",
    key: "limiter",
    from: REFILL,
    to: REFILL_TO,
    search: typoRefill(REFILL),
    replace: typoRefill(REFILL_TO),
    say: "Cap the refill window at an hour so a suspended laptop doesn't overflow the maths:",
  }),
  oneFile({
    id: "fuzzy-docstring-word-py",
    category: "fuzzy",
    note: "The docstring in SEARCH has an extra word; 13-line block, clearly the best window.",
    key: "exporters",
    from: CSV_FN,
    to: CSV_TO,
    search: csvDrift(CSV_FN),
    replace: csvDrift(CSV_TO),
    say: "Rows with extra keys crash the CSV writer. Ignore fields that aren't in the header:",
  }),
  oneFile({
    id: "fuzzy-rust-rewritten-context-line",
    category: "fuzzy",
    note: "One unchanged line in SEARCH is written in an equivalent but different form; 9-line block.",
    key: "tokenizer",
    from: NUMBER_ARM,
    to: NUMBER_TO,
    search: numberDrift(NUMBER_ARM),
    replace: numberDrift(NUMBER_TO),
    say: "Allow `_` digit separators like `1_000`:",
  }),
  {
    id: "fuzzy-udiff-typo-context",
    category: "fuzzy",
    format: "udiff",
    expect: "apply",
    note: "udiff with a typo in a context line; applied, the context line keeps the file's text.",
    before: tree({ [P.orders]: S.orders }),
    after: tree({ [P.orders]: ordersPlaced }),
    reply: reply(
      "Publish an `OrderPlaced` event:",
      fence(udiff(P.orders, javaDrift(S.orders), javaDrift(ordersPlaced))),
    ),
  },
  {
    id: "fuzzy-patch-comment-drift",
    category: "fuzzy",
    format: "patch",
    expect: "apply",
    note: "apply_patch whose context has one comment word changed, in a 9-line chunk.",
    before: tree({ [P.cache]: S.cache }),
    after: tree({ [P.cache]: cachePut }),
    reply: reply(
      "Compute the expiry once:",
      fence(patchDoc(patchUpdate(P.cache, goDrift(S.cache), goDrift(cachePut), { context: 7 })), ""),
    ),
  },
  {
    id: "fuzzy-left-out-brace-moved-refused-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    hint: ["  }"],
    note:
      "The SEARCH leaves out the `}` that closes the fast path, and the REPLACE adds a `}` beside it (the model " +
      "moved that brace below the lines it adds): kept and added, the file would close a block twice. Refused.",
    before: tree({ [ROUTE_PATH]: ROUTE }),
    reply: reply(
      "Only run the fast path when a path is given:",
      editblock(
        ROUTE_PATH,
        `  if (this.regexp.fastSlash) {
    this.params = {};
    this.path = '';
    return true;

  const m = this.regexp.exec(path);

  if (!m) {`,
        `  if (path != null) {
    if (this.regexp.fastSlash) {
      this.params = {};
      this.path = '';
      return true;
    }

    m = this.regexp.exec(path);

  if (!m) {`,
      ),
    ),
  },
  {
    id: "fuzzy-left-out-fence-moved-refused-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    hint: ["```sh"],
    note:
      "The SEARCH leaves out the fence that opens the example, and among the lines the REPLACE adds beside it is " +
      "that fence (the model moved it): kept and added, the Markdown would hold a stray fence. Refused.",
    before: tree({ [USAGE_PATH]: USAGE }),
    reply: reply(
      "Document the new flag:",
      editblock(
        USAGE_PATH,
        `Run the generator from your project's root:

tool init github.com/you/app
\`\`\`

## Adding commands`,
        `Run the generator from your project's root. The module name is now required:

For example:
\`\`\`sh
tool init --module github.com/you/app
\`\`\`

or, for a project elsewhere:

tool init --module github.com/you/app path/to/app
\`\`\`

## Adding commands`,
      ),
    ),
  },
  {
    id: "fuzzy-invented-line-beside-insertion-refused-udiff",
    category: "fuzzy",
    format: "udiff",
    expect: "refuse",
    reasons: ["ambiguous-match"],
    hint: [],
    note:
      "The hunk quotes the fixture line where the assertion before `});` stands: the closest window takes its " +
      "`});` for a line the model invented and would add the teardown after the fixture line, while the `});` " +
      "that ends the block above puts it there. Two places for the added line: refused.",
    before: tree({ [PARSE_TEST_PATH]: PARSE_TEST }),
    reply: reply(
      "Clean the fixtures up after the parse tests:",
      fence(
        [
          `--- a/${PARSE_TEST_PATH}`,
          `+++ b/${PARSE_TEST_PATH}`,
          "@@ -8,4 +8,5 @@",
          '   const input = readFixture("orders.csv", { encoding: "utf8", trim: true });',
          " });",
          "+afterAll(cleanup);",
          " ",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "fuzzy-swapped-lines-beside-insertion-refused-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "refuse",
    reasons: ["ambiguous-match", "search-not-found"],
    hint: ["});"],
    note:
      "The SEARCH has the assertion and the `});` after it in the opposite order from the file, and adds a test " +
      "after its last line: read with the assertion in place the test lands inside the block, read with `});` in " +
      "place it lands after it. The order cannot be told from the text: refused.",
    before: tree({ [PARSE_TEST_PATH]: PARSE_TEST }),
    reply: reply(
      "Test quoted commas too:",
      editblock(
        PARSE_TEST_PATH,
        `  // The reader must keep quoted commas inside a field, as the format allows.
});
  expect(parseCsv(input).rows).toHaveLength(3);`,
        `  // The reader must keep quoted commas inside a field, as the format allows.
});
  expect(parseCsv(input).rows).toHaveLength(3);

it("keeps quoted commas", () => expect(parseCsv('"a,b"').rows[0]).toEqual(["a,b"]));`,
      ),
    ),
  },
  {
    id: "fuzzy-joined-lines-insertion-after-both-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "apply",
    note:
      "The SEARCH writes the file's last assertion and the `});` after it as one line, and adds a block after " +
      "it: the joined line stands for both file lines, so the block lands after `});`, never inside the test.",
    before: tree({ [PARSE_TEST_PATH]: PARSE_TEST }),
    after: tree({
      [PARSE_TEST_PATH]: swap(
        PARSE_TEST,
        "toHaveLength(3);\n});\n",
        'toHaveLength(3);\n});\n\ndescribe("quote", () => {\n  it.todo("escapes");\n});\n',
      ),
    }),
    reply: reply(
      "Add a place for the quoting tests:",
      editblock(
        PARSE_TEST_PATH,
        `  // The reader must keep quoted commas inside a field, as the format allows.
  expect(parseCsv(input).rows).toHaveLength(3); });`,
        `  // The reader must keep quoted commas inside a field, as the format allows.
  expect(parseCsv(input).rows).toHaveLength(3); });

describe("quote", () => {
  it.todo("escapes");
});`,
      ),
    ),
  },
  {
    id: "fuzzy-drifted-line-copied-from-below-refused-udiff",
    category: "fuzzy",
    format: "udiff",
    expect: "refuse",
    reasons: ["ambiguous-match"],
    note:
      "Two option types end alike. The hunk quotes their shared lines and ends with the second response type's " +
      "header, which the file has verbatim further down and which resembles the line after the second block: " +
      "read as a typo it picks the second block, read as a line copied from below it picks nothing. Refused.",
    before: tree({ [TOKEN_TYPES_PATH]: TOKEN_TYPES }),
    reply: reply(
      "Rename the client id field:",
      fence(
        [
          `--- a/${TOKEN_TYPES_PATH}`,
          `+++ b/${TOKEN_TYPES_PATH}`,
          "@@ @@",
          "-    clientId: string;",
          "+    clientIdentifier: string;",
          "     token: string;",
          " };",
          ' export type SecondResponse = Endpoints["PATCH /applications/{client_id}/token"]["response"] & {',
        ].join("\n"),
      ),
    ),
  },
  {
    id: "fuzzy-paraphrase-refused-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    hint: ["    def refund(self, amount: Decimal) -> None:"],
    note: "The SEARCH paraphrases refund() from memory; far below any safe threshold. The message should quote the real method.",
    before: tree({ [P.billing]: S.billing }),
    reply: reply(
      "Partial refunds should also be logged:",
      editblock(
        P.billing,
        `    def refund(self, amount):
        if amount > self.total_paid:
            raise RefundError("refund exceeds payments")
        self.total_paid = self.total_paid - amount`,
        `    def refund(self, amount):
        if amount > self.total_paid:
            raise RefundError("refund exceeds payments")
        self.total_paid = self.total_paid - amount
        log.info("refunded %s", amount)`,
      ),
    ),
  },
  {
    id: "fuzzy-paraphrase-refused-udiff",
    category: "fuzzy",
    format: "udiff",
    expect: "refuse",
    reasons: ["hunk-context-mismatch", "search-not-found"],
    hint: ["func healthHandler(started time.Time) http.HandlerFunc {"],
    note: "A hunk written against an imagined version of the handler. Refused, quoting the real handler.",
    before: tree({ [P.server]: S.server }),
    reply: reply(
      "Don't let proxies cache the health response:",
      fence(
        [
          `--- a/${P.server}`,
          `+++ b/${P.server}`,
          "@@ -22,9 +22,10 @@",
          " func healthHandler(started time.Time) http.HandlerFunc {",
          " \treturn func(w http.ResponseWriter, _ *http.Request) {",
          '-\t\tw.Header().Add("content-type", "application/json; charset=utf-8")',
          "-\t\tenc := json.NewEncoder(w)",
          '-\t\tenc.Encode(map[string]string{"status": "ok", "since": started.String()})',
          '+\t\tw.Header().Set("Content-Type", "application/json")',
          '+\t\tw.Header().Set("Cache-Control", "no-store")',
          '+\t\t_ = json.NewEncoder(w).Encode(healthReport{Status: "ok", Version: version, Started: started})',
          " \t}",
          " }",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "fuzzy-paraphrase-refused-patch",
    category: "fuzzy",
    format: "patch",
    expect: "refuse",
    reasons: ["hunk-context-mismatch", "search-not-found"],
    hint: ["    public Order place(String customerId, List<OrderLine> lines) {"],
    note: "apply_patch whose removed lines describe a stream-based place() that does not exist. Refused.",
    before: tree({ [P.orders]: S.orders }),
    reply: reply(
      "Emit an event after saving:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.orders}`,
            "@@ public Order place(String customerId, List<OrderLine> lines) {",
            "-        BigDecimal sum = lines.stream().map(OrderLine::total).reduce(BigDecimal.ZERO, BigDecimal::add);",
            "-        Order created = Order.create(customerId, lines, sum);",
            "-        repository.persist(created);",
            "-        return created;",
            "+        BigDecimal sum = lines.stream().map(OrderLine::total).reduce(BigDecimal.ZERO, BigDecimal::add);",
            "+        Order created = Order.create(customerId, lines, sum);",
            "+        repository.persist(created);",
            "+        events.publish(new OrderPlaced(created.id()));",
            "+        return created;",
          ].join("\n"),
        ),
        "",
      ),
    ),
  },
  {
    id: "fuzzy-tie-refused",
    category: "fuzzy",
    format: "editblock",
    expect: "refuse",
    reasons: ["ambiguous-match", "search-not-found"],
    note: "A drifted SEARCH equally close to two identical windows (export_json, export_lines): no clear best, refused.",
    before: tree({ [P.exporters]: S.exporters }),
    reply: reply(
      "Empty exports deserve a warning, not an info line:",
      editblock(
        P.exporters,
        `    if not rows:
        log.info("nothing to exprot")
        return 0
    destination.parent.mkdir(parents=True, exist_ok=True)
    with destination.open("w") as handle:`,
        `    if not rows:
        log.warning("nothing to export")
        return 0
    destination.parent.mkdir(parents=True, exist_ok=True)
    with destination.open("w") as handle:`,
      ),
    ),
  },
  {
    id: "fuzzy-padded-search-keeps-drifted-line-editblock",
    category: "fuzzy",
    format: "editblock",
    expect: "apply",
    note:
      "Every SEARCH line carries two trailing spaces the REPLACE lacks, so each quoted line reads as removed and " +
      "added back; one of them is stale (`timeout: 30m`, the file says `45m`). The line is only restated, so the " +
      "file keeps its own text and only the new line is added.",
    before: tree({ [P.yaml]: S.yaml }),
    after: tree({ [P.yaml]: swap(S.yaml, "    timeout: 45m\n", "    timeout: 45m\n    retries: 2\n") }),
    reply: reply(
      "Retry the reindex job:",
      editblock(
        P.yaml,
        '  - name: reindex  \n    schedule: "0 3 * * *"  \n    timeout: 30m  \n  - name: prune-reservations  ',
        '  - name: reindex\n    schedule: "0 3 * * *"\n    timeout: 30m\n    retries: 2\n  - name: prune-reservations',
      ),
    ),
  },
  {
    id: "fuzzy-invented-line-before-repeated-anchor-refused-udiff",
    category: "fuzzy",
    format: "udiff",
    expect: "refuse",
    reasons: ["hunk-context-mismatch"],
    hint: ['    assert parse_amount("twelve euros and fifty cents") is None'],
    note:
      "The hunk adds an assertion after its last line, which the file has twice in a row, and quotes an `except` " +
      "the file lacks just before it: read as invented, the line places the assertion after the first copy; read " +
      "as the model's rendering of the first copy, after the second. Two places for the added line: refused.",
    before: tree({ [AMOUNT_TEST_PATH]: AMOUNT_TEST }),
    reply: reply(
      "Reject blank input too:",
      fence(
        [
          `--- a/${AMOUNT_TEST_PATH}`,
          `+++ b/${AMOUNT_TEST_PATH}`,
          "@@ -1,10 +1,11 @@",
          " from ledger.amounts import parse_amount",
          " ",
          " ",
          " def test_parse_plain():",
          '     assert parse_amount("12") == 1200',
          '     assert parse_amount("12.50") == 1250',
          " ",
          " ",
          " def test_parse_rejects_words():",
          "     except ValueError:",
          '     assert parse_amount("twelve euros and fifty cents") is None',
          '+    assert parse_amount("   ") is None',
        ].join("\n"),
      ),
    ),
  },
  {
    id: "fuzzy-lines-copied-from-two-look-alike-blocks-refused-udiff",
    category: "fuzzy",
    format: "udiff",
    expect: "refuse",
    reasons: ["ambiguous-match"],
    note:
      "Two usage examples in a doc comment differ in their first line and in one semicolon. The hunk, numbered for " +
      "the second, quotes the first example's first line verbatim and the second's line with the semicolon: by " +
      "likeness the first example is nearer, but each place holds three of the quoted lines verbatim. Two places: " +
      "refused.",
    before: tree({ [CACHE_DOC_PATH]: CACHE_DOC }),
    reply: reply(
      "Count the misses too:",
      fence(
        [
          `--- a/${CACHE_DOC_PATH}`,
          `+++ b/${CACHE_DOC_PATH}`,
          "@@ -21,4 +21,5 @@",
          "    * const user = await cache.read('user:1')",
          "    * if (user.active) {",
          "    *   audit.log(user.id);",
          "    *   metrics.count('cache.hit')",
          "+   *   metrics.count('cache.miss')",
        ].join("\n"),
      ),
    ),
  },
];
