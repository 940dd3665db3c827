/** indentation: drifted indentation matches; new lines are written in the file's own unit and depth. */
import { fence, reply, udiff, patchDoc, patchUpdate } from "../render.js";
import { rescale, shift, spacesToTabs, swap, tabsToSpaces } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, tree } from "./common.js";

const REFUND_FROM = `    def refund(self, amount: Decimal) -> None:
        if amount <= 0:
            raise ValueError("refund amount must be positive")
        if amount > self.paid:
            raise RefundError(f"cannot refund {amount}, only {self.paid} was paid")
        self.paid -= amount`;
const REFUND_TO = `    def refund(self, amount: Decimal) -> None:
        if amount <= 0:
            raise ValueError("refund amount must be positive")
        if amount > self.paid:
            raise RefundError(f"cannot refund {amount}, only {self.paid} was paid")
        if self.currency != "EUR":
            amount = amount.quantize(CENT, rounding=ROUND_HALF_UP)
        self.paid -= amount`;

const HEALTH_FROM = spacesToTabs(`        if r.Method != http.MethodGet {
            http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
            return
        }`);
const HEALTH_TO = spacesToTabs(`        if r.Method != http.MethodGet && r.Method != http.MethodHead {
            w.Header().Set("Allow", "GET, HEAD")
            http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
            return
        }`);

const AVAILABLE_FROM = `  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }`;
const AVAILABLE_TO = `  available(): number {
    this.refill();
    if (this.tokens >= this.options.capacity) {
      return this.options.capacity;
    }
    return Math.floor(this.tokens);
  }`;

const RECORDS_FROM = `            for record in page.records:
                if record.get("deleted"):
                    self.store.delete(record["id"])
                else:
                    self.store.upsert(record)
                written += 1`;
const RECORDS_TO = `            for record in page.records:
                if record.get("deleted"):
                    self.store.delete(record["id"])
                else:
                    try:
                        self.store.upsert(record)
                    except ValueError:
                        log.warning("skipping malformed record %s", record.get("id"))
                        continue
                written += 1`;

const CACHE_GET_FROM = `\tif c.now().After(e.expires) {
\t\tdelete(c.items, key)
\t\treturn nil, ErrNotFound
\t}
\treturn e.value, nil`;
const CACHE_GET_TO = `\tif c.now().After(e.expires) {
\t\tdelete(c.items, key)
\t\treturn nil, ErrNotFound
\t}
\tif e.value == nil {
\t\treturn []byte{}, nil
\t}
\treturn e.value, nil`;

const cacheChanged = swap(S.cache, CACHE_GET_FROM, CACHE_GET_TO);
const SERVER_SHUTDOWN_FROM = spacesToTabs(`    if err := srv.Shutdown(shutdownCtx); err != nil {
        log.Printf("shutdown: %v", err)
    }`);
const SERVER_SHUTDOWN_TO = spacesToTabs(`    if err := srv.Shutdown(shutdownCtx); err != nil {
        log.Printf("shutdown: %v", err)
        if cerr := srv.Close(); cerr != nil {
            log.Printf("close: %v", cerr)
        }
    }`);
const serverChanged = swap(S.server, SERVER_SHUTDOWN_FROM, SERVER_SHUTDOWN_TO);

const VERSION_FROM = 'var version = "dev"';
/** A usage text in a Go raw string: its lines are indented with spaces in a tab-indented file, as the text is. */
const VERSION_TO = [
  'var version = "dev"',
  "",
  "const usage = `Usage: server [flags]",
  "",
  "Flags:",
  "      --addr string   address to listen on",
  "  -h, --help          show this help`",
].join("\n");

export const INDENTATION: CaseSpec[] = [
  oneFile({
    id: "indentation-go-raw-string-keeps-spaces",
    category: "indentation",
    note: "Tab-indented Go; the added raw string's lines are indented with spaces, which are its text: kept as written.",
    key: "server",
    from: VERSION_FROM,
    to: VERSION_TO,
    say: "Add the usage text the flags will print:",
  }),
  oneFile({
    id: "indentation-py-method-outdented",
    category: "indentation",
    note: "Python method written at column 0 (one level too shallow); matched, re-indented into the class.",
    key: "billing",
    from: REFUND_FROM,
    to: REFUND_TO,
    search: shift(REFUND_FROM, -4),
    replace: shift(REFUND_TO, -4),
    say: "Round refunds in foreign currencies to the cent before subtracting:",
  }),
  oneFile({
    id: "indentation-ts-over-indented",
    category: "indentation",
    note: "TypeScript method over-indented by one level in SEARCH and REPLACE.",
    key: "limiter",
    from: AVAILABLE_FROM,
    to: AVAILABLE_TO,
    search: shift(AVAILABLE_FROM, 2),
    replace: shift(AVAILABLE_TO, 2),
    say: "Avoid reporting a fractional remainder when the bucket is full:",
  }),
  oneFile({
    id: "indentation-go-spaces-for-tabs",
    category: "indentation",
    note: "Tab-indented Go, reply indented with 4 spaces: matched, and the new lines are written with tabs.",
    key: "server",
    from: HEALTH_FROM,
    to: HEALTH_TO,
    search: tabsToSpaces(HEALTH_FROM),
    replace: tabsToSpaces(HEALTH_TO),
    say: "Load balancers probe with HEAD; allow it and say so in the `Allow` header:",
  }),
  {
    id: "indentation-go-udiff-spaces",
    category: "indentation",
    format: "udiff",
    expect: "apply",
    note: "A unified diff whose lines use spaces for a tab-indented Go file: context keeps tabs, added lines get tabs.",
    before: tree({ [P.cache]: S.cache }),
    after: tree({ [P.cache]: cacheChanged }),
    reply: reply(
      "`Get` should never hand out a nil slice for a stored empty value:",
      fence(udiff(P.cache, tabsToSpaces(S.cache), tabsToSpaces(cacheChanged))),
    ),
  },
  oneFile({
    id: "indentation-makefile-spaces-recipe",
    category: "indentation",
    note: "Makefile recipe lines written with spaces: they must land as tabs or make refuses the file.",
    key: "makefile",
    from: spacesToTabs(`test:
    $(GO) test -race -count=1 ./...`),
    to: spacesToTabs(`test:
    $(GO) test -race -count=1 ./...

coverage:
    $(GO) test -coverprofile=coverage.out ./...
    $(GO) tool cover -func=coverage.out`),
    search: `test:
    $(GO) test -race -count=1 ./...`,
    replace: `test:
    $(GO) test -race -count=1 ./...

coverage:
    $(GO) test -coverprofile=coverage.out ./...
    $(GO) tool cover -func=coverage.out`,
    say: "A `coverage` target:",
  }),
  oneFile({
    id: "indentation-ts-4-spaces-for-2",
    category: "indentation",
    note: "2-space TypeScript, reply in 4-space units: new lines are written in the file's 2-space unit (levels kept).",
    key: "limiter",
    from: AVAILABLE_FROM,
    to: AVAILABLE_TO,
    search: rescale(AVAILABLE_FROM, 2, 4),
    replace: rescale(AVAILABLE_TO, 2, 4),
    say: "Same fix for `available()`, capped at capacity:",
  }),
  oneFile({
    id: "indentation-py-2-spaces-for-4",
    category: "indentation",
    note: "4-space Python, reply in 2-space units: the new lines get the file's 4-space levels.",
    key: "billing",
    from: REFUND_FROM,
    to: REFUND_TO,
    search: rescale(REFUND_FROM, 4, 2),
    replace: rescale(REFUND_TO, 4, 2),
    say: "Rounding foreign-currency refunds:",
  }),
  oneFile({
    id: "indentation-py-nested-outdented",
    category: "indentation",
    note: "Nested Python loop written from column 0; the added try/except nests two levels deeper in the file.",
    key: "sync",
    from: RECORDS_FROM,
    to: RECORDS_TO,
    search: shift(RECORDS_FROM, -12),
    replace: shift(RECORDS_TO, -12),
    say: "One malformed record currently aborts the whole page. Skip it instead:",
  }),
  oneFile({
    id: "indentation-rust-over-indented",
    category: "indentation",
    note: "Rust match arm over-indented by 4 spaces in the reply.",
    key: "tokenizer",
    from: `            '/' => {
                tokens.push(Token::Slash);
                i += 1;
            }`,
    to: `            '/' => {
                if chars.get(i + 1) == Some(&'/') {
                    break;
                }
                tokens.push(Token::Slash);
                i += 1;
            }`,
    search: shift(
      `            '/' => {
                tokens.push(Token::Slash);
                i += 1;
            }`,
      4,
    ),
    replace: shift(
      `            '/' => {
                if chars.get(i + 1) == Some(&'/') {
                    break;
                }
                tokens.push(Token::Slash);
                i += 1;
            }`,
      4,
    ),
    say: "Treat `//` as the start of a comment that runs to the end of the input:",
  }),
  oneFile({
    id: "indentation-yaml-outdented-block",
    category: "indentation",
    note: "A nested YAML block written from column 0: re-indented, so it stays under `database:`.",
    key: "yaml",
    from: `  pool:
    min: 2
    max: 10
    idle_timeout: 30s`,
    to: `  pool:
    min: 2
    max: 10
    idle_timeout: 30s
    max_lifetime: 1h`,
    search: `pool:
  min: 2
  max: 10
  idle_timeout: 30s`,
    replace: `pool:
  min: 2
  max: 10
  idle_timeout: 30s
  max_lifetime: 1h`,
    say: "Recycle connections hourly so failovers don't leave stale sockets:",
  }),
  {
    id: "indentation-go-patch-spaces",
    category: "indentation",
    format: "patch",
    expect: "apply",
    note: "apply_patch for a tab-indented Go file written with spaces.",
    before: tree({ [P.server]: S.server }),
    after: tree({ [P.server]: serverChanged }),
    reply: reply(
      "If graceful shutdown times out, force-close the listener:",
      fence(patchDoc(patchUpdate(P.server, tabsToSpaces(S.server), tabsToSpaces(serverChanged))), ""),
    ),
  },
  {
    id: "indentation-java-udiff-outdented",
    category: "indentation",
    format: "udiff",
    expect: "apply",
    note: "udiff whose lines lost the class-level indentation (4 spaces); added lines land at the file's depth.",
    before: tree({ [P.orders]: S.orders }),
    after: tree({
      [P.orders]: swap(
        S.orders,
        `        if (order.isPaid()) {
            payments.refund(order.paymentId(), order.total());
        }`,
        `        if (order.isPaid()) {
            payments.refund(order.paymentId(), order.total());
            log.info("refunded order {}", orderId);
        }`,
      ),
    }),
    reply: reply(
      "Log refunds issued on cancellation:",
      fence(
        [
          `--- a/${P.orders}`,
          `+++ b/${P.orders}`,
          "@@ -45,5 +45,6 @@",
          "     if (order.isPaid()) {",
          "         payments.refund(order.paymentId(), order.total());",
          '+        log.info("refunded order {}", orderId);',
          "     }",
          "     repository.save(order.cancelled(Instant.now(clock)));",
          " }",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "indentation-js-call-argument-reindented",
    category: "indentation",
    format: "editblock",
    expect: "apply",
    note: "The SEARCH indents a call's continued argument line two spaces deeper than the file, the REPLACE as the file does: a line inside an open bracket is layout, not nesting.",
    before: tree({
      "src/render.js":
        "import { compile } from './compile.js';\nimport { escapeHtml } from './escape.js';\n\nexport function renderTemplate(source, options) {\n  const fn = compile(source, options);\n  return function render(data) {\n    const helpers = { escape: escapeHtml, include: options.include };\n    return fn.call(options.context,\n      data || Object.create(null), helpers);\n  };\n}\n",
    }),
    after: tree({
      "src/render.js":
        "import { compile } from './compile.js';\nimport { escapeHtml } from './escape.js';\n\nexport function renderTemplate(source, options) {\n  const fn = compile(source, options);\n  return function render(data) {\n    const helpers = { escape: escapeHtml, include: options.include };\n    const locals = Object.assign(Object.create(null), data);\n    return fn.call(options.context,\n      locals, helpers);\n  };\n}\n",
    }),
    reply:
      "Copy the data into a prototype-free object before the template sees it:\n\nsrc/render.js\n```js\n<<<<<<< SEARCH\n    return fn.call(options.context,\n        data || Object.create(null), helpers);\n=======\n    const locals = Object.assign(Object.create(null), data);\n    return fn.call(options.context,\n      locals, helpers);\n>>>>>>> REPLACE\n```\n",
  },
  {
    id: "indentation-py-call-arguments-reindented",
    category: "indentation",
    format: "editblock",
    expect: "apply",
    note: "Python call arguments continued inside the parenthesis, aligned differently in the SEARCH: the offside rule is off inside brackets, and the lines after it still nest as the file does.",
    before: tree({
      "app/report.py":
        'from app.db import fetch_rows\n\n\ndef monthly_totals(conn, month):\n    rows = fetch_rows(conn, "SELECT amount FROM invoices WHERE month = ?",\n                      (month,))\n    total = 0\n    for row in rows:\n        total += row.amount\n    return total\n',
    }),
    after: tree({
      "app/report.py":
        'from app.db import fetch_rows\n\n\ndef monthly_totals(conn, month):\n    rows = fetch_rows(conn, "SELECT amount FROM invoices WHERE month = ? AND voided = 0",\n                      (month,))\n    total = 0\n    for row in rows:\n        total += row.amount\n    return total\n',
    }),
    reply:
      'Voided invoices must not count:\n\napp/report.py\n```python\n<<<<<<< SEARCH\n    rows = fetch_rows(conn, "SELECT amount FROM invoices WHERE month = ?",\n        (month,))\n    total = 0\n=======\n    rows = fetch_rows(conn, "SELECT amount FROM invoices WHERE month = ? AND voided = 0",\n        (month,))\n    total = 0\n>>>>>>> REPLACE\n```\n',
  },
  {
    id: "indentation-py-nested-differently-after-bracket-refused",
    category: "indentation",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    hint: ['    return [row for row in rows if row.get("active")]'],
    note: "The SEARCH puts the return inside the with block, the file after it: the bracket closed on the line before, so that line is nesting again and the place is refused.",
    before: tree({
      "app/loader.py":
        'import json\n\n\ndef load(path):\n    with open(path) as handle:\n        rows = json.loads(\n            handle.read(),\n        )\n    return [row for row in rows if row.get("active")]\n\n\ndef save(path, rows):\n    with open(path, "w") as handle:\n        handle.write(json.dumps(rows))\n',
    }),
    reply:
      'Keep inactive rows too:\n\napp/loader.py\n```python\n<<<<<<< SEARCH\n    with open(path) as handle:\n        rows = json.loads(\n            handle.read(),\n        )\n        return [row for row in rows if row.get("active")]\n=======\n    with open(path) as handle:\n        rows = json.loads(\n            handle.read(),\n        )\n        return rows\n>>>>>>> REPLACE\n```\n',
  },
];
