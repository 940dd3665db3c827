/** line-endings: CRLF files with LF replies, mixed endings kept per line. */
import { fence, reply, udiff, wholeFile } from "../render.js";
import { crlf, crlfOn, lfOnInCrlf, spacesToTabs, swaps } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, tree } from "./common.js";

const SETTINGS_V2 = swaps(S.settings, [
  [`  "refreshIntervalSeconds": 30,`, `  "refreshIntervalSeconds": 60,`],
  [`    "lowStockAlerts": true`, `    "lowStockAlerts": true,\n    "reorderSuggestions": true`],
]);

export const LINE_ENDINGS: CaseSpec[] = [
  oneFile({
    id: "line-endings-crlf-ts-editblock",
    category: "line-endings",
    note: "CRLF file, LF reply: the match ignores CR and every written line (new ones too) ends in CRLF.",
    key: "limiter",
    dress: crlf,
    from: `    const missing = count - this.tokens;`,
    to: `    const missing = Math.max(0, count - this.tokens);
    if (missing === 0) {
      return 0;
    }`,
    say: "`msUntil` can return a negative delay when tokens are already available. Clamp it:",
  }),
  oneFile({
    id: "line-endings-crlf-py-udiff",
    category: "line-endings",
    note: "CRLF Python file, LF unified diff; context lines keep CRLF, the new line gets CRLF.",
    key: "billing",
    dress: crlf,
    render: "udiff",
    from: `    def outstanding(self) -> Decimal:
        return self.total() - self.paid`,
    to: `    def outstanding(self) -> Decimal:
        remaining = self.total() - self.paid
        return max(remaining, Decimal("0"))`,
    say: "After a refund `outstanding()` can go negative. Clamp it at zero:",
  }),
  oneFile({
    id: "line-endings-crlf-java-patch",
    category: "line-endings",
    note: "CRLF Java file, apply_patch written with LF.",
    key: "orders",
    dress: crlf,
    render: "patch",
    from: `    public Optional<Order> find(String orderId) {
        return repository.findById(orderId);`,
    to: `    public Optional<Order> find(String orderId) {
        Objects.requireNonNull(orderId, "orderId");
        return repository.findById(orderId);`,
    say: "A null id reaches the repository and fails deep inside the driver; fail early instead:",
  }),
  oneFile({
    id: "line-endings-crlf-yaml-insert",
    category: "line-endings",
    note: "Pure insertion into a CRLF YAML file: the inserted lines take CRLF.",
    key: "yaml",
    dress: crlf,
    from: `  - name: prune-reservations
    schedule: "*/15 * * * *"
    timeout: 5m`,
    to: `  - name: prune-reservations
    schedule: "*/15 * * * *"
    timeout: 5m
  - name: expire-carts
    schedule: "0 * * * *"
    timeout: 10m`,
    say: "Abandoned carts hold stock for days. Here's an hourly job to expire them:",
  }),
  {
    ...oneFile({
      id: "line-endings-crlf-reply-lf-file",
      category: "line-endings",
      note: "The reply itself has CRLF line endings (pasted from Windows); the LF file stays LF.",
      key: "cache",
      from: `\tif len(c.items) >= c.maxSize {`,
      to: `\tif c.maxSize > 0 && len(c.items) >= c.maxSize {`,
      say: "A zero `maxSize` means unbounded, so only evict when a limit is set:",
    }),
    reply: crlf(
      reply(
        "A zero `maxSize` means unbounded, so only evict when a limit is set:",
        "internal/store/cache.go\n```go\n<<<<<<< SEARCH\n\tif len(c.items) >= c.maxSize {\n=======\n\tif c.maxSize > 0 && len(c.items) >= c.maxSize {\n>>>>>>> REPLACE\n```",
      ),
    ),
  },
  oneFile({
    id: "line-endings-mixed-mostly-lf",
    category: "line-endings",
    note: "Mostly-LF file with two stray CRLF lines far from the edit: they keep CRLF, new lines are LF.",
    key: "limiter",
    dress: crlfOn(["export interface RateLimiterOptions {", "  available(): number {"]),
    from: `    const added = elapsed * this.options.refillPerSecond;
    this.tokens = Math.min(this.options.capacity, this.tokens + added);`,
    to: `    const added = elapsed * this.options.refillPerSecond;
    const before = this.tokens;
    this.tokens = Math.min(this.options.capacity, this.tokens + added);
    if (before < this.options.capacity && this.tokens === this.options.capacity) {
      this.emit("full");
    }`,
    say: "Emit a `full` event when the bucket fills up again, so the dashboard can clear its warning:",
  }),
  oneFile({
    id: "line-endings-mixed-mostly-crlf",
    category: "line-endings",
    note: "Mostly-CRLF file with one stray LF line: it stays LF; the edited and new lines are CRLF.",
    key: "billing",
    dress: lfOnInCrlf(["from __future__ import annotations"]),
    from: `            if item.quantity > 100:
                print(f"large order for {item.sku} on {invoice.customer_id}")`,
    to: `            if item.quantity > LARGE_ORDER:
                logger.info("large order for %s on %s", item.sku, invoice.customer_id)
                flagged.append(item.sku)`,
    say: "Replace the stray `print` with the logger and collect the flagged SKUs:",
    outro: "You'll need `LARGE_ORDER`, `logger` and `flagged` defined; I can add them next.",
  }),
  oneFile({
    id: "line-endings-crlf-go-delete-line",
    category: "line-endings",
    note: "Deleting a line from a CRLF Go file leaves the neighbours' CRLF intact.",
    key: "server",
    dress: crlf,
    from: spacesToTabs(`    }()
    log.Printf("listening on %s", addr)`),
    to: spacesToTabs(`    }()`),
    say: "The listener logs its own address now, so this line is redundant:",
  }),
  {
    id: "line-endings-crlf-whole-rewrite",
    category: "line-endings",
    format: "whole",
    expect: "apply",
    note: "Whole-file rewrite of a CRLF file written with LF: the file keeps its CRLF convention.",
    before: tree({ [P.settings]: crlf(S.settings) }),
    after: tree({ [P.settings]: crlf(SETTINGS_V2) }),
    reply: reply(
      "Here is the full updated settings file (slower refresh, reorder suggestions on):",
      wholeFile(P.settings, SETTINGS_V2),
    ),
  },
  {
    id: "line-endings-crlf-reply-crlf-file-udiff",
    category: "line-endings",
    format: "udiff",
    expect: "apply",
    note: "A CRLF unified diff applied to a CRLF Markdown file.",
    before: tree({ [P.setup]: crlf(S.setup) }),
    after: tree({
      [P.setup]: crlf(swaps(S.setup, [["- PostgreSQL 15 (the Docker image is fine)", "- PostgreSQL 16"]])),
    }),
    reply: crlf(
      reply(
        "Postgres 16 is what production runs now:",
        fence(
          udiff(P.setup, S.setup, swaps(S.setup, [["- PostgreSQL 15 (the Docker image is fine)", "- PostgreSQL 16"]])),
        ),
      ),
    ),
  },
];
