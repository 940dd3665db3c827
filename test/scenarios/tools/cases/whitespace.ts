/** whitespace: trailing and whitespace-only drift is forgiven; the file keeps its own bytes. */
import { editblock } from "../render.js";
import { crlf, trailing } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, refusal } from "./common.js";

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

const SERVE_FROM = `\tsrv := newServer(addr)

\tctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)`;
const SERVE_TO = `\tsrv := newServer(addr)

\tif err := checkAddr(addr); err != nil {
\t\tlog.Fatalf("address: %v", err)
\t}

\tctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)`;

const CURSOR_FROM = `        self.cursor = store.load_cursor()

    def run_once(self) -> int:`;
const CURSOR_TO = `        self.cursor = store.load_cursor()

    def reset(self) -> None:
        self.cursor = None

    def run_once(self) -> int:`;

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
  oneFile({
    id: "whitespace-search-drops-blank-line-go",
    category: "whitespace",
    note: "The SEARCH lacks the blank line between its two lines, and the REPLACE adds a block set off by blank lines right there: the file's blank line is one of them.",
    key: "server",
    from: SERVE_FROM,
    to: SERVE_TO,
    search: SERVE_FROM.replace("\n\n", "\n"),
    say: "Check the address before starting the server:",
  }),
  oneFile({
    id: "whitespace-search-drops-blank-line-py",
    category: "whitespace",
    note: "The SEARCH lacks the blank line between two methods, and the REPLACE adds a method with a blank line on each side: one of them is the file's.",
    key: "sync",
    from: CURSOR_FROM,
    to: CURSOR_TO,
    search: CURSOR_FROM.replace("\n\n", "\n"),
    say: "Add a way to start over from the beginning:",
  }),
  refusal(
    "whitespace-search-drops-blank-line-insert-refused",
    "whitespace",
    "editblock",
    ["search-not-found"],
    "The SEARCH lacks the blank line between its two lines, and the REPLACE adds a line between them with no blank line beside it: whether it goes above or below the file's blank line cannot be told.",
    { [P.server]: S.server },
    `Check the address first:\n\n${editblock(P.server, SERVE_FROM.replace("\n\n", "\n"), SERVE_FROM.replace("\n\n", "\n\tcheckAddr(addr)\n"))}\n`,
  ),
];
