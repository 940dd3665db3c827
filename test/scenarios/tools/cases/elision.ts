/** elision: `...` / `// ... existing code ...` honoured only when paired; anything that would delete code is refused. */
import { reply, editblock, wholeFile } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, tree } from "./common.js";

const apply = (
  id: string,
  key: keyof typeof P,
  note: string,
  say: string,
  search: string,
  replace: string,
  from: string,
  to: string,
): CaseSpec => ({
  id,
  category: "elision",
  format: "editblock",
  expect: "apply",
  note,
  before: tree({ [P[key]]: S[key] }),
  after: tree({ [P[key]]: swap(S[key], from, to) }),
  reply: reply(say, editblock(P[key], search, replace)),
});

const refuse = (
  id: string,
  key: keyof typeof P,
  note: string,
  say: string,
  search: string,
  replace: string,
): CaseSpec => ({
  id,
  category: "elision",
  format: "editblock",
  expect: "refuse",
  reasons: ["invalid-format"],
  note,
  before: tree({ [P[key]]: S[key] }),
  reply: reply(say, editblock(P[key], search, replace)),
});

const STUB_PATH = "billing/amounts.py";
const STUB = `from decimal import Decimal


def parse_amount(text: str) -> Decimal:
    return Decimal(text.strip())


def format_amount(amount: Decimal) -> str:
    ...
`;

const HEADER_PATH = "mail/header.py";
const HEADER = `def split_params(raw):
    """The parameters of a header value, in order."""
    # Keep the same order as the sender wrote them...
    fields = [field.strip() for field in raw.split(";")]
    return [field for field in fields if field]
`;

export const ELISION: CaseSpec[] = [
  apply(
    "elision-paired-dots-ts",
    "limiter",
    "A bare `...` line at the same place in SEARCH and REPLACE keeps the constructor's middle as it is.",
    "Raise the listener limit; dashboards attach one listener per widget:",
    `  constructor(private readonly options: RateLimiterOptions) {
    super();
...
    this.lastRefill = this.now();
  }`,
    `  constructor(private readonly options: RateLimiterOptions) {
    super();
...
    this.lastRefill = this.now();
    this.setMaxListeners(50);
  }`,
    "    this.lastRefill = this.now();\n  }",
    "    this.lastRefill = this.now();\n    this.setMaxListeners(50);\n  }",
  ),
  apply(
    "elision-existing-code-go",
    "server",
    "`// ... existing code ...` in SEARCH and REPLACE skips the start of main().",
    "Log the shutdown and give in-flight requests a bit longer:",
    `func main() {
\t// ... existing code ...
\t<-ctx.Done()
\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)`,
    `func main() {
\t// ... existing code ...
\t<-ctx.Done()
\tlog.Printf("shutting down")
\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)`,
    "\t<-ctx.Done()\n\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)",
    '\t<-ctx.Done()\n\tlog.Printf("shutting down")\n\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)',
  ),
  apply(
    "elision-two-pairs-java",
    "orders",
    "Two paired bare `...` lines: three anchored pieces, only the last one changes.",
    "Lock the order row while cancelling:",
    `public final class OrderService {
...
    public Order place(String customerId, List<OrderLine> lines) {
...
    public void cancel(String orderId) {
        Order order = repository.findById(orderId)`,
    `public final class OrderService {
...
    public Order place(String customerId, List<OrderLine> lines) {
...
    public void cancel(String orderId) {
        Order order = repository.findByIdForUpdate(orderId)`,
    "    public void cancel(String orderId) {\n        Order order = repository.findById(orderId)",
    "    public void cancel(String orderId) {\n        Order order = repository.findByIdForUpdate(orderId)",
  ),
  apply(
    "elision-existing-code-java",
    "orders",
    "Java method with its middle elided by `// ... existing code ...` on both sides.",
    "Publish an event when an order is cancelled:",
    `    public void cancel(String orderId) {
        // ... existing code ...
        repository.save(order.cancelled(Instant.now(clock)));
    }`,
    `    public void cancel(String orderId) {
        // ... existing code ...
        repository.save(order.cancelled(Instant.now(clock)));
        events.publish(new OrderCancelled(orderId));
    }`,
    "        repository.save(order.cancelled(Instant.now(clock)));\n    }",
    "        repository.save(order.cancelled(Instant.now(clock)));\n        events.publish(new OrderCancelled(orderId));\n    }",
  ),
  apply(
    "elision-hash-comment-py",
    "exporters",
    "Python's comment form `# ... existing code ...`, paired.",
    "Log how many rows each export wrote:",
    `def export(rows, destination: Path, kind: str) -> int:
    # ... existing code ...
    return exporter(rows, destination)`,
    `def export(rows, destination: Path, kind: str) -> int:
    # ... existing code ...
    count = exporter(rows, destination)
    log.debug("export(%s) wrote %d rows", kind, count)
    return count`,
    "    return exporter(rows, destination)",
    '    count = exporter(rows, destination)\n    log.debug("export(%s) wrote %d rows", kind, count)\n    return count',
  ),
  refuse(
    "elision-only-in-replace",
    "limiter",
    "The elision appears only in REPLACE: applying it would delete the method body. Refused.",
    "Emit an event on every removal:",
    `  remove(count = 1): void {
    if (!this.tryRemove(count)) {
      throw new RateLimitExceeded(this.msUntil(count));
    }
  }`,
    `  remove(count = 1): void {
    // ... existing code ...
    this.emit("removed", count);
  }`,
  ),
  refuse(
    "elision-only-in-search",
    "handlers",
    "The elision appears only in SEARCH: the REPLACE would silently drop the elided lines (the session guard). Refused.",
    "Simplify the patch handler:",
    `export async function patchProfile(req: IncomingMessage, res: ServerResponse, session: Session | undefined) {
...
  sendJson(res, 200, updated);
}`,
    `export async function patchProfile(req: IncomingMessage, res: ServerResponse, session: Session | undefined) {
  const body = await readBody(req);
  sendJson(res, 200, await updateUser(session!.userId, body));
}`,
  ),
  refuse(
    "elision-count-mismatch",
    "orders",
    "Two elisions in SEARCH, one in REPLACE: the pairing is undefined and code would be lost. Refused.",
    "Use the injected clock consistently:",
    `    public void cancel(String orderId) {
        // ... existing code ...
        if (order.isPaid()) {
        // ... existing code ...
        repository.save(order.cancelled(Instant.now(clock)));`,
    `    public void cancel(String orderId) {
        // ... existing code ...
        repository.save(order.cancelled(clock.instant()));`,
  ),
  {
    id: "elision-bare-ellipsis-only-refused-editblock",
    category: "elision",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    hint: ["def parse_amount(text: str) -> Decimal:"],
    note:
      'A Python SEARCH holding nothing but `...` (the model\'s "lines left out"): the file has one `...` line, a ' +
      "stub's body, but the SEARCH names no place. Refused, asking for the real lines.",
    before: tree({ [STUB_PATH]: STUB }),
    reply: reply(
      "Log the parsed amount:",
      editblock(STUB_PATH, "\n...\n", '\n...\n    log.debug("parsed %s", text)\n'),
    ),
  },
  {
    id: "elision-whole-file-lazy",
    category: "elision",
    format: "whole",
    expect: "refuse",
    reasons: ["invalid-format"],
    note: "A whole-file reply with `// ... existing code ...` would replace the file with a stub. Refused.",
    before: tree({ [P.limiter]: S.limiter }),
    reply: reply(
      "Here's the updated limiter:",
      wholeFile(
        P.limiter,
        `import { EventEmitter } from "node:events";

// ... existing code ...

export class RateLimiter extends EventEmitter {
  // ... existing code ...

  reset(): void {
    this.tokens = this.options.capacity;
    this.lastRefill = this.now();
  }

  // ... existing code ...
}
`,
      ),
    ),
  },
  {
    id: "elision-lookalike-comment-changed-editblock",
    category: "elision",
    format: "editblock",
    expect: "apply",
    note:
      "A comment that reads like an elision (`# Keep the same order as the sender wrote them...`) stands in SEARCH " +
      "and, reworded, in REPLACE: the SEARCH is found with it as a line of the file, so it is that line, and the " +
      "edit rewords it (it was kept as it was, the rewording lost).",
    before: tree({ [HEADER_PATH]: HEADER }),
    after: tree({
      [HEADER_PATH]: swap(
        swap(HEADER, "sender wrote them...", "sender wrote them, duplicates too..."),
        'raw.split(";")',
        'raw.split(";") if field.strip()',
      ),
    }),
    reply: reply(
      "Skip empty parameters early:",
      editblock(
        HEADER_PATH,
        `    # Keep the same order as the sender wrote them...
    fields = [field.strip() for field in raw.split(";")]`,
        `    # Keep the same order as the sender wrote them, duplicates too...
    fields = [field.strip() for field in raw.split(";") if field.strip()]`,
      ),
    ),
  },
];
