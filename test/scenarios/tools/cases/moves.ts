/** move and missing-original: moves never overwrite; updates need the file. */
import { editblock, fence, patchDoc, patchUpdate, reply, udiff } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, refusal, tree } from "./common.js";

const HANDLERS_IMPORT = 'import { findUser, listOrders, updateUser } from "./repository.js";';
const HANDLERS_MOVED_IMPORT = 'import { findUser, listOrders, updateUser } from "../repository.js";';
export const handlersMoved = swap(S.handlers, HANDLERS_IMPORT, HANDLERS_MOVED_IMPORT);
const SYNC_IMPORT = "from .client import ApiClient, ApiError, RateLimited";
const syncMoved = swap(S.sync, SYNC_IMPORT, "from ..client import ApiClient, ApiError, RateLimited");

const gitRename = (from: string, to: string, similarity: number): string =>
  [`diff --git a/${from} b/${to}`, `similarity index ${similarity}%`, `rename from ${from}`, `rename to ${to}`].join(
    "\n",
  );

export const MOVE: CaseSpec[] = [
  {
    id: "move-patch-with-change",
    category: "move",
    format: "patch",
    expect: "apply",
    note: "`*** Update File` + `*** Move to` with a chunk: the file moves and changes; the old path is gone.",
    before: tree({ [P.handlers]: S.handlers }),
    after: tree({ "src/http/handlers.ts": handlersMoved }),
    reply: reply(
      "Moving the handlers under `src/http/` and fixing the relative import:",
      fence(patchDoc(patchUpdate(P.handlers, S.handlers, handlersMoved, { moveTo: "src/http/handlers.ts" })), ""),
    ),
  },
  {
    id: "move-git-rename-pure",
    category: "move",
    format: "udiff",
    expect: "apply",
    note: "A git rename with 100% similarity and no hunks.",
    before: tree({ [P.tokenizer]: S.tokenizer }),
    after: tree({ "src/lexer.rs": S.tokenizer }),
    reply: reply(
      "Renaming the module to match the crate's terminology:",
      fence(gitRename(P.tokenizer, "src/lexer.rs", 100)),
    ),
  },
  {
    id: "move-git-rename-with-hunk",
    category: "move",
    format: "udiff",
    expect: "apply",
    note: "A git rename followed by a hunk against the new path.",
    before: tree({ [P.sync]: S.sync }),
    after: tree({ "app/workers/sync.py": syncMoved }),
    reply: reply(
      "Workers get their own package:",
      fence(
        `${gitRename(P.sync, "app/workers/sync.py", 96)}\n${udiff(P.sync, S.sync, syncMoved)
          .split("\n")
          .slice(1)
          .join("\n")
          .replace(`--- a/${P.sync}\n+++ b/${P.sync}`, `--- a/${P.sync}\n+++ b/app/workers/sync.py`)}`,
      ),
    ),
  },
  {
    id: "move-patch-into-new-folder",
    category: "move",
    format: "patch",
    expect: "apply",
    note: "Move into a folder that does not exist yet, with an edit.",
    before: tree({ [P.sync]: S.sync, [P.exporters]: S.exporters }),
    after: tree({ "app/workers/sync.py": syncMoved, [P.exporters]: S.exporters }),
    reply: reply(
      "Moving the worker:",
      fence(patchDoc(patchUpdate(P.sync, S.sync, syncMoved, { moveTo: "app/workers/sync.py" })), ""),
    ),
  },
  refusal(
    "move-patch-onto-existing",
    "move",
    "patch",
    ["file-exists"],
    "`*** Move to` an existing path: a move never overwrites.",
    tree({ [P.handlers]: S.handlers, "src/http/handlers.ts": "export {};\n" }),
    reply(
      "Moving the handlers:",
      fence(patchDoc(patchUpdate(P.handlers, S.handlers, handlersMoved, { moveTo: "src/http/handlers.ts" })), ""),
    ),
  ),
  refusal(
    "move-git-rename-onto-existing",
    "move",
    "udiff",
    ["file-exists"],
    "A git rename whose destination exists.",
    tree({ [P.tokenizer]: S.tokenizer, "src/lexer.rs": "// placeholder\n" }),
    reply("Rename:", fence(gitRename(P.tokenizer, "src/lexer.rs", 100))),
  ),
  refusal(
    "move-patch-missing-source",
    "move",
    "patch",
    ["missing-original"],
    "Moving a file that does not exist.",
    tree({ [P.handlers]: S.handlers }),
    reply(
      "Move the routes file:",
      fence(
        patchDoc(
          [
            `*** Update File: src/routes.ts`,
            "*** Move to: src/http/routes.ts",
            "@@",
            ' import { getProfile } from "./handlers.js";',
            "-export const routes = [getProfile];",
            "+export const routes = [getProfile] as const;",
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
];

export const MISSING: CaseSpec[] = [
  refusal(
    "missing-original-editblock",
    "missing-original",
    "editblock",
    ["missing-original"],
    "A non-empty SEARCH for a file that does not exist.",
    tree({ [P.limiter]: S.limiter }),
    reply("Tighten the quota check:", editblock("src/quota.ts", "  if (used > limit) {", "  if (used >= limit) {")),
  ),
  refusal(
    "missing-original-udiff",
    "missing-original",
    "udiff",
    ["missing-original"],
    "A hunk for a path that is not in the tree.",
    tree({ [P.billing]: S.billing }),
    reply(
      "Round taxes half-up:",
      fence(
        [
          "--- a/app/taxes.py",
          "+++ b/app/taxes.py",
          "@@ -3,3 +3,3 @@",
          " def vat(amount):",
          "-    return amount * RATE",
          "+    return (amount * RATE).quantize(CENT, rounding=ROUND_HALF_UP)",
          " ",
        ].join("\n"),
      ),
    ),
  ),
  refusal(
    "missing-original-patch-update",
    "missing-original",
    "patch",
    ["missing-original"],
    "`*** Update File` for a missing path.",
    tree({ [P.orders]: S.orders }),
    reply(
      "Null-check the id:",
      fence(
        patchDoc(
          [
            "*** Update File: src/main/java/com/acme/orders/OrderController.java",
            "@@",
            "     public Order get(String id) {",
            "+        Objects.requireNonNull(id);",
            "         return service.find(id).orElseThrow();",
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
  refusal(
    "missing-original-wrong-folder",
    "missing-original",
    "editblock",
    ["missing-original"],
    "The path names src/utils/, the file lives in src/; the engine must not guess.",
    tree({ [P.limiter]: S.limiter }),
    reply(
      "Emit an event on throttling:",
      editblock(
        "src/utils/rate-limiter.ts",
        "    this.tokens -= count;\n    return true;",
        '    this.tokens -= count;\n    this.emit("removed", count);\n    return true;',
      ),
    ),
  ),
  {
    id: "missing-original-case-differs",
    category: "missing-original",
    format: "editblock",
    expect: "apply",
    note: "No file is Src/Handlers.ts; src/handlers.ts is the one file it can mean (a case-insensitive file system would open it), and the SEARCH is found there.",
    before: tree({ [P.handlers]: S.handlers }),
    after: tree({ [P.handlers]: swap(S.handlers, "{ limit: 50 }", "{ limit: 100 }") }),
    reply: reply(
      "A larger page:",
      editblock(
        "Src/Handlers.ts",
        "  const orders = await listOrders(session.userId, { limit: 50 });",
        "  const orders = await listOrders(session.userId, { limit: 100 });",
      ),
    ),
  },
  refusal(
    "missing-original-among-good",
    "missing-original",
    "editblock",
    ["missing-original"],
    "One good block and one for a missing file: nothing is written.",
    tree({ [P.limiter]: S.limiter }),
    reply(
      "Two changes:",
      editblock(
        P.limiter,
        "    this.tokens -= count;\n    return true;",
        '    this.tokens -= count;\n    this.emit("removed", count);\n    return true;',
      ),
      editblock("src/metrics.ts", 'counter("limiter_removed")', 'counter("limiter_removed_total")'),
    ),
  ),
];
