/** whitespace: trailing and whitespace-only drift is forgiven; the file keeps its own bytes. */
import { crlf, trailing } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { oneFile } from "./common.js";

const REMOVE_FROM = `  remove(count = 1): void {
    if (!this.tryRemove(count)) {
      throw new RateLimitExceeded(this.msUntil(count));
    }
  }`;
const REMOVE_TO = `  remove(count = 1): void {
    if (!this.tryRemove(count)) {
      this.emit("rejected", count);
      throw new RateLimitExceeded(this.msUntil(count));
    }
  }`;

const TOTAL_FROM = `    def total(self) -> Decimal:
        gross = sum((item.subtotal() for item in self.items), Decimal("0"))
        discount = (gross * self.discount_rate).quantize(CENT, rounding=ROUND_HALF_UP)
        return gross - discount`;
const TOTAL_TO = `    def total(self) -> Decimal:
        gross = sum((item.subtotal() for item in self.items), Decimal("0"))
        rate = min(max(self.discount_rate, Decimal("0")), Decimal("1"))
        discount = (gross * rate).quantize(CENT, rounding=ROUND_HALF_UP)
        return gross - discount`;

const SYNC_BLANK = (t: string): string =>
  t
    .replace("store.load_cursor()\n\n", "store.load_cursor()\n    \n")
    .replace("self.errors = 0\n\n", "self.errors = 0\n    \n");

export const WHITESPACE: CaseSpec[] = [
  oneFile({
    id: "whitespace-trailing-in-file",
    category: "whitespace",
    note: "The file has trailing spaces the SEARCH lacks; unchanged lines keep their trailing spaces.",
    key: "limiter",
    dress: trailing(["  remove(count = 1): void {", "    if (!this.tryRemove(count)) {"]),
    from: REMOVE_FROM,
    to: REMOVE_TO,
    say: "Emit `rejected` before throwing so the metrics listener sees hard failures too:",
  }),
  oneFile({
    id: "whitespace-trailing-in-search",
    category: "whitespace",
    note: "The model added trailing spaces to unchanged lines; the file has none and gets none.",
    key: "billing",
    from: TOTAL_FROM,
    to: TOTAL_TO,
    search: trailing(["    def total(self) -> Decimal:", "        return gross - discount"], " ")(TOTAL_FROM),
    replace: trailing(["    def total(self) -> Decimal:", "        return gross - discount"], " ")(TOTAL_TO),
    say: "Clamp the discount rate to [0, 1] so a bad import can't produce negative invoices:",
  }),
  oneFile({
    id: "whitespace-trailing-tabs-go",
    category: "whitespace",
    note: "Trailing tabs in a Go file, absent from the SEARCH; they survive on unchanged lines.",
    key: "cache",
    dress: trailing(["func (c *Cache) Put(key string, value []byte) {", "\tdefer c.mu.Unlock()"], "\t"),
    from: `func (c *Cache) Put(key string, value []byte) {
\tc.mu.Lock()
\tdefer c.mu.Unlock()
\tif len(c.items) >= c.maxSize {
\t\tc.evictExpired()
\t}`,
    to: `func (c *Cache) Put(key string, value []byte) {
\tc.mu.Lock()
\tdefer c.mu.Unlock()
\tif _, exists := c.items[key]; !exists && len(c.items) >= c.maxSize {
\t\tc.evictExpired()
\t}`,
    say: "Overwriting an existing key shouldn't trigger eviction:",
  }),
  oneFile({
    id: "whitespace-udiff-context-trailing",
    category: "whitespace",
    note: "udiff context lines without the file's trailing spaces; those lines keep the file's bytes.",
    key: "exporters",
    dress: trailing([
      '    with destination.open("w") as handle:',
      '    """Write rows as a JSON array and return how many were written."""',
    ]),
    render: "udiff",
    diffOnClean: true,
    from: `        json.dump(rows, handle, indent=2, sort_keys=True)`,
    to: `        json.dump(rows, handle, indent=2, sort_keys=True, default=str)`,
    say: "Dates in the rows make `json.dump` blow up; serialise unknown types with `str`:",
  }),
  oneFile({
    id: "whitespace-patch-yaml-trailing",
    category: "whitespace",
    note: "apply_patch against YAML with trailing spaces on context lines.",
    key: "yaml",
    dress: trailing(["cache:", "  ttl: 5m"]),
    render: "patch",
    diffOnClean: true,
    from: `  max_entries: 10000`,
    to: `  max_entries: 50000`,
    say: "The cache thrashes at 10k entries; 50k fits comfortably in memory:",
  }),
  oneFile({
    id: "whitespace-blank-line-with-indent",
    category: "whitespace",
    note: "A whitespace-only line in the file against an empty line in the SEARCH; it keeps its spaces.",
    key: "sync",
    dress: SYNC_BLANK,
    from: `        self.cursor = store.load_cursor()

    def run_once(self) -> int:`,
    to: `        self.cursor = store.load_cursor()
        self.errors = 0

    def run_once(self) -> int:`,
    say: "Track errors per worker (used by the health endpoint in the next change):",
  }),
  oneFile({
    id: "whitespace-crlf-and-trailing",
    category: "whitespace",
    note: "CRLF file whose context lines carry trailing spaces; SEARCH has neither.",
    key: "orders",
    dress: (t) => crlf(trailing(["    public void markShipped(String orderId, String trackingNumber) {"])(t)),
    from: `    public void markShipped(String orderId, String trackingNumber) {
        Order order = repository.findById(orderId)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
        repository.save(order.shipped(trackingNumber, Instant.now(clock)));`,
    to: `    public void markShipped(String orderId, String trackingNumber) {
        Order order = repository.findById(orderId)
                .orElseThrow(() -> new OrderNotFoundException(orderId));
        if (trackingNumber == null || trackingNumber.isBlank()) {
            throw new IllegalArgumentException("a tracking number is required");
        }
        repository.save(order.shipped(trackingNumber, Instant.now(clock)));`,
    say: "Reject shipments without a tracking number:",
  }),
];
