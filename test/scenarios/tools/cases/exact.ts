/** exact: the SEARCH / hunk text is byte-identical to the file. */
import { spacesToTabs } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { oneFile } from "./common.js";

export const EXACT: CaseSpec[] = [
  oneFile({
    id: "exact-ts-guard-count",
    category: "exact",
    note: "Plain SEARCH/REPLACE on a TypeScript class; the SEARCH is copied verbatim.",
    key: "limiter",
    from: `  tryRemove(count = 1): boolean {
    this.refill();`,
    to: `  tryRemove(count = 1): boolean {
    if (!Number.isInteger(count) || count <= 0) {
      throw new RangeError("count must be a positive integer");
    }
    this.refill();`,
    say: "`tryRemove` accepts zero and fractional counts, which silently corrupts the bucket. I'll reject them up front:",
    outro: "`remove()` goes through `tryRemove`, so it gets the same check.",
  }),
  oneFile({
    id: "exact-py-payment-message",
    category: "exact",
    note: "SEARCH/REPLACE in a Python method, 8-space body copied exactly.",
    key: "billing",
    from: `    def pay(self, amount: Decimal) -> None:
        if amount <= 0:
            raise ValueError("payment must be positive")
        self.paid += amount`,
    to: `    def pay(self, amount: Decimal) -> None:
        if amount <= 0:
            raise ValueError(f"payment must be positive, got {amount}")
        if amount > self.outstanding():
            raise ValueError(f"payment {amount} exceeds the outstanding {self.outstanding()}")
        self.paid += amount`,
    say: "Overpayments are currently accepted. Here is the guard in `Invoice.pay`:",
  }),
  oneFile({
    id: "exact-go-listen-addr",
    category: "exact",
    note: "Go file indented with tabs; the SEARCH keeps the tabs.",
    key: "server",
    from: spacesToTabs(`    addr := os.Getenv("LISTEN_ADDR")
    if addr == "" {
        addr = ":8080"
    }`),
    to: spacesToTabs(`    addr := os.Getenv("LISTEN_ADDR")
    if addr == "" {
        if port := os.Getenv("PORT"); port != "" {
            addr = ":" + port
        } else {
            addr = ":8080"
        }
    }`),
    say: "Most platforms hand us `PORT` rather than a full address. Fall back to it before the default:",
  }),
  oneFile({
    id: "exact-rust-carriage-return",
    category: "exact",
    note: "One-line change inside a Rust match arm.",
    key: "tokenizer",
    from: `            ' ' | '\\t' | '\\n' => {`,
    to: `            ' ' | '\\t' | '\\n' | '\\r' => {`,
    say: "Input pasted from Windows editors contains `\\r`, which the lexer rejects. Treat it as whitespace:",
  }),
  oneFile({
    id: "exact-makefile-fmt-target",
    category: "exact",
    note: "Makefile recipe lines with real tabs in the SEARCH and REPLACE.",
    key: "makefile",
    from: spacesToTabs(`lint:
    $(GO) vet ./...
    gofmt -l . | tee /dev/stderr | (! read)`),
    to: spacesToTabs(`lint:
    $(GO) vet ./...
    gofmt -l . | tee /dev/stderr | (! read)

fmt:
    gofmt -w .`),
    say: "Adding a `fmt` target next to `lint`:",
    outro: "You may also want to list it in `.PHONY`.",
  }),
  oneFile({
    id: "exact-java-udiff-cancel-twice",
    category: "exact",
    note: "A correct git-style unified diff with accurate numbers.",
    key: "orders",
    render: "udiff",
    from: `        if (order.isShipped()) {
            throw new IllegalStateException("order " + orderId + " has already shipped");
        }`,
    to: `        if (order.isShipped()) {
            throw new IllegalStateException("order " + orderId + " has already shipped");
        }
        if (order.isCancelled()) {
            return;
        }`,
    say: "Cancelling twice should be a no-op instead of refunding twice:",
  }),
  oneFile({
    id: "exact-yaml-udiff-pool",
    category: "exact",
    note: "Unified diff on YAML; two adjacent value changes.",
    key: "yaml",
    render: "udiff",
    udiff: { git: false },
    from: `    max: 10
    idle_timeout: 30s`,
    to: `    max: 25
    idle_timeout: 60s`,
    say: "The pool runs dry during the nightly reindex. Raising the ceiling and keeping idle connections longer:",
  }),
  oneFile({
    id: "exact-json-patch-dark-mode",
    category: "exact",
    note: "apply_patch update of a JSON file with a bare @@ chunk.",
    key: "settings",
    render: "patch",
    from: `    "darkMode": false,`,
    to: `    "darkMode": true,
    "highContrast": false,`,
    say: "Turning dark mode on by default and adding the new high-contrast flag:",
  }),
  oneFile({
    id: "exact-py-patch-normalise-kind",
    category: "exact",
    note: "apply_patch chunk with an @@ anchor naming the function.",
    key: "exporters",
    render: "patch",
    anchors: ["def export(rows, destination: Path, kind: str) -> int:"],
    from: `    try:
        exporter = EXPORTERS[kind]`,
    to: `    try:
        exporter = EXPORTERS[kind.strip().lower()]`,
    say: "The CLI passes `--kind CSV` through unchanged; normalise it before the lookup:",
  }),
  oneFile({
    id: "exact-md-udiff-go-version",
    category: "exact",
    note: "Unified diff on Markdown with a bare `diff --git` header.",
    key: "setup",
    render: "udiff",
    from: "- Go 1.22 or newer",
    to: "- Go 1.23 or newer",
    say: "The module now uses `range over func`, so the guide should ask for Go 1.23:",
  }),
  oneFile({
    id: "exact-ts-udiff-two-hunks",
    category: "exact",
    note: "Unified diff with two hunks far apart in one file.",
    key: "handlers",
    render: "udiff",
    from: `  const orders = await listOrders(session.userId, { limit: 50 });`,
    to: `  const orders = await listOrders(session.userId, { limit: 100 });`,
    also: [
      [
        `  res.writeHead(status, { "content-type": "application/json" });`,
        `  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });`,
      ],
    ],
    say: "The dashboard pages through 100 orders now, and the JSON responses should declare their charset:",
  }),
  oneFile({
    id: "exact-rust-patch-test",
    category: "exact",
    note: "apply_patch adding a test at the end of a Rust module.",
    key: "tokenizer",
    render: "patch",
    from: `            vec![Token::Number(1.0), Token::Plus, Token::Number(2.0)]
        );
    }
}`,
    to: `            vec![Token::Number(1.0), Token::Plus, Token::Number(2.0)]
        );
    }

    #[test]
    fn reports_the_offset_of_a_bad_character() {
        assert_eq!(tokenize("1 $ 2"), Err(LexError { offset: 2, found: '$' }));
    }
}`,
    say: "A regression test for the error offset:",
  }),
];
