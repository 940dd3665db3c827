/** sequential: edits apply in order, each against the result of the earlier ones. */
import { editblock, fence, patchDoc, patchUpdate, reply, udiffHunks } from "../render.js";
import { swap, swaps } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, applied } from "./common.js";

/** Blocks (path, search, replace) rendered as editblocks, and the same swaps applied in order to the files. */
function blocks(files: Record<string, string>, list: readonly (readonly [string, string, string])[]) {
  const after: Record<string, string> = { ...files };
  for (const [path, from, to] of list) after[path] = swap(after[path] ?? "", from, to);
  return { after, rendered: list.map(([path, from, to]) => editblock(path, from, to)) };
}

const AVAILABLE = "  available(): number {\n    this.refill();\n    return Math.floor(this.tokens);\n  }";
const RESET = "  reset(): void {\n    this.tokens = this.options.capacity;\n  }";
const RESET_TO =
  '  reset(): void {\n    this.tokens = this.options.capacity;\n    this.lastRefill = this.now();\n    this.emit("reset");\n  }';
const dependent = blocks({ [P.limiter]: S.limiter }, [
  [P.limiter, AVAILABLE, `${AVAILABLE}\n\n${RESET}`],
  [P.limiter, RESET, RESET_TO],
]);

const outOfOrderPy = blocks({ [P.billing]: S.billing }, [
  [
    P.billing,
    "        if not invoice.items:\n            continue",
    '        if not invoice.items or invoice.currency == "XXX":\n            continue',
  ],
  [
    P.billing,
    "    def subtotal(self) -> Decimal:\n        return (self.unit_price * self.quantity).quantize(CENT, rounding=ROUND_HALF_UP)",
    '    def subtotal(self) -> Decimal:\n        if self.quantity < 0:\n            raise ValueError(f"negative quantity for {self.sku}")\n        return (self.unit_price * self.quantity).quantize(CENT, rounding=ROUND_HALF_UP)',
  ],
]);

const threeGo = blocks({ [P.server]: S.server }, [
  [P.server, '\t"os/signal"\n\t"time"', '\t"os/signal"\n\t"syscall"\n\t"time"'],
  [
    P.server,
    "\tctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)",
    "\tctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)",
  ],
  [
    P.server,
    "\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)",
    "\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)",
  ],
]);

const renameThenEdit = blocks({ [P.exporters]: S.exporters }, [
  [
    P.exporters,
    "def export_lines(rows, destination: Path) -> int:",
    "def export_jsonl(rows, destination: Path) -> int:",
  ],
  [
    P.exporters,
    'def export_jsonl(rows, destination: Path) -> int:\n    """Write one JSON document per line and return how many were written."""',
    'def export_jsonl(rows, destination: Path) -> int:\n    """Write JSON Lines (one document per line) and return how many were written."""',
  ],
  [P.exporters, '    "jsonl": export_lines,', '    "jsonl": export_jsonl,'],
]);

const sameLineTwice = blocks({ [P.yaml]: S.yaml }, [
  [P.yaml, "  port: 8080", "  port: 8081"],
  [P.yaml, "  port: 8081", "  port: 9090"],
]);

const outOfOrderJava = blocks({ [P.orders]: S.orders }, [
  [
    P.orders,
    "        repository.save(order.shipped(trackingNumber, Instant.now(clock)));",
    "        repository.save(order.shipped(trackingNumber.trim(), Instant.now(clock)));",
  ],
  [
    P.orders,
    '        this.clock = Objects.requireNonNull(clock, "clock");\n    }',
    '        this.clock = Objects.requireNonNull(clock, "clock");\n        this.log = System.getLogger(OrderService.class.getName());\n    }',
  ],
]);

const tokenizerTwo = swaps(S.tokenizer, [
  [
    "pub struct LexError {\n    pub offset: usize,",
    "pub struct LexError {\n    /// Index of the offending character (in chars, not bytes).\n    pub offset: usize,",
  ],
  ['            tokenize("1 + 2").unwrap(),', '            tokenize("1 +  2").unwrap(),'],
]);
const tokenizerHunks = udiffHunks(S.tokenizer, tokenizerTwo).split(/\n(?=@@)/);

const ordersTwo = swaps(S.orders, [
  [
    '            throw new IllegalArgumentException("an order needs at least one line");',
    "            throw new EmptyOrderException(customerId);",
  ],
  ["        if (order.isShipped()) {", "        if (order.isShipped() || order.isInTransit()) {"],
]);

// The model wrote the insertion twice: its SEARCH lines are still there after the first, and must not take it again.
const repeated = blocks({ [P.limiter]: S.limiter }, [[P.limiter, AVAILABLE, `${AVAILABLE}\n\n${RESET}`]]);

// Beside its real change, the model quoted lines that occur three times, unchanged.
const GUARD = '  if (!session) {\n    sendJson(res, 401, { error: "not signed in" });\n    return;\n  }';
const LIMIT = "  const orders = await listOrders(session.userId, { limit: 50 });";
const keptAsIs = blocks({ [P.handlers]: S.handlers }, [[P.handlers, LIMIT, LIMIT.replace("50", "100")]]);

export const SEQUENTIAL: CaseSpec[] = [
  applied(
    "sequential-repeated-block-applied-once",
    "sequential",
    "editblock",
    "The reply repeats an insertion block word for word. Its SEARCH lines are still in the file after the first " +
      "copy lands, so applying both would add the method twice: a repeat is applied once.",
    { [P.limiter]: S.limiter },
    repeated.after,
    reply("Add `reset()`:", repeated.rendered[0]!, "Here it is again:", repeated.rendered[0]!),
  ),
  applied(
    "sequential-unchanged-block-on-repeated-lines-applied",
    "sequential",
    "editblock",
    "Beside its real change the reply holds a block whose SEARCH and REPLACE are the same, quoting lines the file " +
      "has three times: it changes nothing wherever it is, so it does not stop the reply.",
    { [P.handlers]: S.handlers },
    keptAsIs.after,
    reply("Raise the limit:", keptAsIs.rendered[0]!, "The guard stays as it is:", editblock(P.handlers, GUARD, GUARD)),
  ),
  applied(
    "sequential-dependent-blocks",
    "sequential",
    "editblock",
    "The second block edits a method the first block creates.",
    { [P.limiter]: S.limiter },
    dependent.after,
    reply(
      "Add `reset()`:",
      dependent.rendered[0]!,
      "And make it restart the refill clock and notify listeners:",
      dependent.rendered[1]!,
    ),
  ),
  applied(
    "sequential-out-of-order-py",
    "sequential",
    "editblock",
    "The first block edits the end of the file, the second the start; both are placed by content.",
    { [P.billing]: S.billing },
    outOfOrderPy.after,
    reply("Two guards:", ...outOfOrderPy.rendered),
  ),
  applied(
    "sequential-three-blocks-go",
    "sequential",
    "editblock",
    "Three blocks on one file, top to bottom.",
    { [P.server]: S.server },
    threeGo.after,
    reply("Handle SIGTERM and give shutdown more time:", ...threeGo.rendered),
  ),
  applied(
    "sequential-udiff-hunks-reversed",
    "sequential",
    "udiff",
    "Hunks listed bottom-first, each with correct original numbers.",
    { [P.tokenizer]: S.tokenizer },
    { [P.tokenizer]: tokenizerTwo },
    reply(
      "Doc comment and a test with extra spaces:",
      fence([`--- a/${P.tokenizer}`, `+++ b/${P.tokenizer}`, tokenizerHunks[1]!, tokenizerHunks[0]!].join("\n")),
    ),
  ),
  applied(
    "sequential-patch-two-chunks",
    "sequential",
    "patch",
    "Two chunks of one Update, in file order.",
    { [P.orders]: S.orders },
    { [P.orders]: ordersTwo },
    reply(
      "Use the domain exception and block in-transit cancellations:",
      fence(patchDoc(patchUpdate(P.orders, S.orders, ordersTwo)), ""),
    ),
  ),
  applied(
    "sequential-rename-then-edit",
    "sequential",
    "editblock",
    "Block 2's SEARCH contains the name block 1 introduced; block 3 updates the registry.",
    { [P.exporters]: S.exporters },
    renameThenEdit.after,
    reply("Renaming `export_lines` to `export_jsonl`:", ...renameThenEdit.rendered),
  ),
  applied(
    "sequential-same-line-twice",
    "sequential",
    "editblock",
    "The second block rewrites the line the first block wrote.",
    { [P.yaml]: S.yaml },
    sameLineTwice.after,
    reply(
      "Move off 8080:",
      sameLineTwice.rendered[0]!,
      "Actually 8081 is taken by the sidecar; use 9090:",
      sameLineTwice.rendered[1]!,
    ),
  ),
  applied(
    "sequential-out-of-order-java",
    "sequential",
    "editblock",
    "A block near the end of the class, then one near the start.",
    { [P.orders]: S.orders },
    outOfOrderJava.after,
    reply("Two small changes:", ...outOfOrderJava.rendered),
  ),
];
