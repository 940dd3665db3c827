/** not-found and already-applied: nothing to place. Refused with the nearest real lines, or "already present". */
import { editblock, fence, patchDoc, reply, udiff } from "../render.js";
import { spacesToTabs, swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { EXACT } from "./exact.js";
import { P, S, tree } from "./common.js";

const notFound = (
  id: string,
  note: string,
  before: Record<string, string>,
  body: string,
  format: CaseSpec["format"],
  hint?: string[],
): CaseSpec => ({
  id,
  category: "not-found",
  format,
  expect: "refuse",
  reasons: format === "editblock" ? ["search-not-found"] : ["hunk-context-mismatch", "search-not-found"],
  ...(hint === undefined ? {} : { hint }),
  note,
  before: tree(before),
  reply: body,
});

export const NOT_FOUND: CaseSpec[] = [
  notFound(
    "not-found-editblock-method-absent",
    "SEARCH for a reset() method that does not exist; the nearest real lines are the constructor's.",
    { [P.limiter]: S.limiter },
    reply(
      "`reset()` should also notify listeners:",
      editblock(
        P.limiter,
        `  reset(): void {
    this.tokens = this.options.capacity;
    this.lastRefill = this.now();
  }`,
        `  reset(): void {
    this.tokens = this.options.capacity;
    this.lastRefill = this.now();
    this.emit("reset");
  }`,
      ),
    ),
    "editblock",
    ["    this.lastRefill = this.now();"],
  ),
  notFound(
    "not-found-udiff-missing-section",
    "The hunk edits a `logging:` section this config file does not have.",
    { [P.yaml]: S.yaml },
    reply(
      "Switch logging to debug while we chase the reservation bug:",
      fence(
        [
          `--- a/${P.yaml}`,
          `+++ b/${P.yaml}`,
          "@@ -6,5 +6,5 @@",
          " logging:",
          "   format: json",
          "-  level: info",
          "+  level: debug",
          "   sink: stdout",
        ].join("\n"),
      ),
    ),
    "udiff",
  ),
  notFound(
    "not-found-patch-method-absent",
    "apply_patch removing lines of a refundPartially() method that does not exist.",
    { [P.orders]: S.orders },
    reply(
      "Partial refunds must not exceed the order total:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.orders}`,
            "@@",
            "     public void refundPartially(String orderId, BigDecimal amount) {",
            "-        payments.refund(orderId, amount);",
            "+        Order order = repository.findById(orderId).orElseThrow(() -> new OrderNotFoundException(orderId));",
            "+        if (amount.compareTo(order.total()) > 0) {",
            '+            throw new IllegalArgumentException("refund exceeds the order total");',
            "+        }",
            "+        payments.refund(order.paymentId(), amount);",
            "     }",
          ].join("\n"),
        ),
        "",
      ),
    ),
    "patch",
  ),
  notFound(
    "not-found-fragment-of-line",
    "The SEARCH is a fragment of a longer line; a SEARCH never matches inside a line. The message quotes the whole line.",
    { [P.handlers]: S.handlers },
    reply("Raise the page size:", editblock(P.handlers, "{ limit: 50 }", "{ limit: 100 }")),
    "editblock",
    ["  const orders = await listOrders(session.userId, { limit: 50 });"],
  ),
  notFound(
    "not-found-wrong-file",
    "The SEARCH text exists, but in exporters.py, not in the billing.py the block names.",
    { [P.billing]: S.billing, [P.exporters]: S.exporters },
    reply(
      "Normalise the export kind:",
      editblock(
        P.billing,
        "    try:\n        exporter = EXPORTERS[kind]",
        "    try:\n        exporter = EXPORTERS[kind.lower()]",
      ),
    ),
    "editblock",
  ),
  notFound(
    "not-found-function-absent-py",
    "SEARCH for an XML exporter that was never written.",
    { [P.exporters]: S.exporters },
    reply(
      "Escape attribute values in the XML exporter:",
      editblock(
        P.exporters,
        `def export_xml(rows, destination: Path) -> int:
    root = ElementTree.Element("rows")
    for row in rows:
        ElementTree.SubElement(root, "row", attrib=row)`,
        `def export_xml(rows, destination: Path) -> int:
    root = ElementTree.Element("rows")
    for row in rows:
        ElementTree.SubElement(root, "row", attrib={k: str(v) for k, v in row.items()})`,
      ),
    ),
    "editblock",
  ),
  notFound(
    "not-found-go-method-absent",
    "SEARCH for a Delete method the cache does not have.",
    { [P.cache]: S.cache },
    reply(
      "Delete should report whether the key existed:",
      editblock(
        P.cache,
        spacesToTabs(`func (c *Cache) Delete(key string) {
    c.mu.Lock()
    delete(c.items, key)
    c.mu.Unlock()
}`),
        spacesToTabs(`func (c *Cache) Delete(key string) bool {
    c.mu.Lock()
    defer c.mu.Unlock()
    _, ok := c.items[key]
    delete(c.items, key)
    return ok
}`),
      ),
    ),
    "editblock",
  ),
  notFound(
    "not-found-empty-file",
    "The target file exists but is empty; no SEARCH can match it.",
    { "src/index.ts": "", [P.limiter]: S.limiter },
    reply(
      "Re-export the limiter from the package entry point:",
      editblock(
        "src/index.ts",
        'export { RateLimiter } from "./rate-limiter.js";',
        'export { RateLimiter, RateLimitExceeded } from "./rate-limiter.js";',
      ),
    ),
    "editblock",
  ),
  notFound(
    "not-found-markdown-section",
    "SEARCH for a 'Deploying' section the guide does not contain.",
    { [P.setup]: S.setup },
    reply(
      "Mention the staging environment:",
      editblock(
        P.setup,
        "## Deploying\n\nRun `make release` and upload the tarball to the artefact store.",
        "## Deploying\n\nRun `make release` and upload the tarball to the artefact store. Deploy to staging first.",
      ),
    ),
    "editblock",
  ),
  notFound(
    "not-found-udiff-outdated-method",
    "udiff against an older add_items(); the real method loops. The message quotes the real signature.",
    { [P.billing]: S.billing },
    reply(
      "Validate items as they are added:",
      fence(
        [
          `--- a/${P.billing}`,
          `+++ b/${P.billing}`,
          "@@ -34,3 +34,5 @@",
          "     def add_items(self, items: Iterable[LineItem]) -> None:",
          "-        self.items.extend(items)",
          "-        self._dirty = True",
          "+        for item in items:",
          "+            self._validate(item)",
          "+            self.items.append(item)",
          "+        self._dirty = True",
        ].join("\n"),
      ),
    ),
    "udiff",
    ["    def add_items(self, items: Iterable[LineItem]) -> None:"],
  ),
];

const exactCase = (id: string): CaseSpec => {
  const found = EXACT.find((c) => c.id === id);
  if (found?.after === undefined) throw new Error(`no exact case ${id}`);
  return found;
};

/** Replays an exact case's reply on its own after/ tree: the change is already there. */
const replay = (id: string, fromCase: string, note: string): CaseSpec => {
  const base = exactCase(fromCase);
  return {
    id,
    category: "already-applied",
    format: base.format,
    expect: "refuse",
    reasons: base.format === "editblock" ? ["search-not-found"] : ["hunk-context-mismatch", "search-not-found"],
    note,
    before: base.after!,
    reply: base.reply,
  };
};

const OUTSTANDING_FROM = "        return self.total() - self.paid";
const OUTSTANDING_TO = '        remaining = self.total() - self.paid\n        return max(remaining, Decimal("0"))';
const billingClamped = swap(S.billing, OUTSTANDING_FROM, OUTSTANDING_TO);
const SAVE_FROM = "        repository.save(order);\n        return order;";
const SAVE_TO =
  "        repository.save(order);\n        events.publish(new OrderPlaced(order.id()));\n        return order;";

export const ALREADY_APPLIED: CaseSpec[] = [
  replay(
    "already-applied-editblock-ts",
    "exact-ts-guard-count",
    "The guard is already in tryRemove(); the message should say the REPLACE text is already present.",
  ),
  replay(
    "already-applied-editblock-go",
    "exact-go-listen-addr",
    "The PORT fallback is already there; refuse and say it is already applied.",
  ),
  replay(
    "already-applied-patch-json",
    "exact-json-patch-dark-mode",
    "darkMode is already true and highContrast already exists; already applied.",
  ),
  replay(
    "already-applied-udiff-insertion",
    "exact-java-udiff-cancel-twice",
    "A pure-insertion hunk whose lines are already in place: its context is no longer contiguous. Already applied, not re-inserted.",
  ),
  {
    id: "already-applied-udiff-py",
    category: "already-applied",
    format: "udiff",
    expect: "refuse",
    reasons: ["hunk-context-mismatch", "search-not-found"],
    note: "The clamp is already in outstanding(); the hunk's new side is present verbatim. Must not apply loosely on top of itself; say it is already there.",
    before: tree({ [P.billing]: billingClamped }),
    reply: reply("Clamp `outstanding()` at zero:", fence(udiff(P.billing, S.billing, billingClamped))),
  },
  {
    id: "already-applied-one-of-two",
    category: "already-applied",
    format: "editblock",
    expect: "refuse",
    reasons: ["search-not-found"],
    note: "Of two blocks, the second is already applied: the reply is refused as a whole and the message says that block is already present.",
    before: tree({ [P.orders]: swap(S.orders, SAVE_FROM, SAVE_TO) }),
    reply: reply(
      "Two changes: validate the customer id, and publish an event after saving.",
      editblock(
        P.orders,
        '        if (lines.isEmpty()) {\n            throw new IllegalArgumentException("an order needs at least one line");\n        }',
        '        Objects.requireNonNull(customerId, "customerId");\n        if (lines.isEmpty()) {\n            throw new IllegalArgumentException("an order needs at least one line");\n        }',
      ),
      editblock(P.orders, SAVE_FROM, SAVE_TO),
    ),
  },
  {
    id: "already-applied-editblock-insertion-beside-quoted-lines",
    category: "already-applied",
    format: "editblock",
    expect: "refuse",
    reasons: ["already-applied"],
    note:
      "The block adds a session guard after the function's first line, and the file already has that guard right " +
      "there: the quoted line is found, but applying would write the guard twice, so it is already applied.",
    before: tree({ [P.handlers]: S.handlers }),
    reply: reply(
      "Guard `getOrders` against a missing session:",
      editblock(
        P.handlers,
        "export async function getOrders(req: IncomingMessage, res: ServerResponse, session: Session | undefined) {",
        'export async function getOrders(req: IncomingMessage, res: ServerResponse, session: Session | undefined) {\n  if (!session) {\n    sendJson(res, 401, { error: "not signed in" });\n    return;\n  }',
      ),
    ),
  },
];
