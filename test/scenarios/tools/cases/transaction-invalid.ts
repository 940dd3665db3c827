/** transaction and invalid-format: one bad block refuses the reply; truncated or garbled blocks are refused. */
import { editblock, fence, patchAdd, patchDoc, patchUpdate, reply, udiff } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, refusal, HANDLER_LIMIT } from "./common.js";
import { ERRORS_TS } from "./new-content.js";
import { LIMITER_EDIT } from "./multi-file.js";

const GOOD_LIMITER = editblock(P.limiter, LIMITER_EDIT.from, LIMITER_EDIT.to);
const GOOD_HANDLERS = editblock(P.handlers, HANDLER_LIMIT, HANDLER_LIMIT.replace("50", "100"));
const both = { [P.limiter]: S.limiter, [P.handlers]: S.handlers };
const yamlMax = swap(S.yaml, "    max: 10", "    max: 20");

export const TRANSACTION: CaseSpec[] = [
  refusal(
    "transaction-second-block-not-found",
    "transaction",
    "editblock",
    ["search-not-found"],
    "Three blocks; the middle one's SEARCH does not exist. Nothing is written, including the two good blocks.",
    both,
    reply(
      "Three changes:",
      GOOD_LIMITER,
      editblock(
        P.handlers,
        "  const orders = await listOrders(session.userId);",
        "  const orders = await listOrders(session.userId, { limit: 100 });",
      ),
      editblock(P.limiter, "  available(): number {", "  available(): number {\n    // whole tokens only"),
    ),
  ),
  {
    ...refusal(
      "transaction-unsafe-path-mixed",
      "transaction",
      "mixed",
      ["unsafe-path"],
      "A good SEARCH/REPLACE, then an apply_patch adding an absolute path: nothing is written.",
      both,
      reply(
        "Limiter event:",
        GOOD_LIMITER,
        "And a cache file:",
        fence(patchDoc(patchAdd("/tmp/patchsmith-canary-transaction.txt", "x\n")), ""),
      ),
    ),
    outside: ["/tmp/patchsmith-canary-transaction.txt"],
  },
  refusal(
    "transaction-udiff-one-bad-hunk",
    "transaction",
    "udiff",
    ["hunk-context-mismatch", "search-not-found"],
    "The first hunk is fine, the second edits a `redis:` section the file does not have; the first is not applied alone.",
    { [P.yaml]: S.yaml },
    reply(
      "Pool and cache tuning:",
      fence(
        `${udiff(P.yaml, S.yaml, yamlMax)}\n@@ -34,4 +34,5 @@\n redis:\n   host: cache.internal\n-  pool_size: 8\n+  pool_size: 32\n+  pool_timeout: 2s\n   db: 0`,
      ),
    ),
  ),
  refusal(
    "transaction-add-existing-with-updates",
    "transaction",
    "patch",
    ["file-exists"],
    "Two good updates and an Add File onto an existing path: refused as a whole.",
    both,
    reply(
      "Patch:",
      fence(
        patchDoc(
          patchUpdate(P.limiter, S.limiter, swap(S.limiter, LIMITER_EDIT.from, LIMITER_EDIT.to)),
          patchAdd(P.handlers, "export {};\n"),
          patchUpdate(P.handlers, S.handlers, swap(S.handlers, HANDLER_LIMIT, HANDLER_LIMIT.replace("50", "100"))),
        ),
        "",
      ),
    ),
  ),
  refusal(
    "transaction-ambiguous-among-good",
    "transaction",
    "editblock",
    ["ambiguous-match"],
    "One good block, then an ambiguous one: nothing is written.",
    both,
    reply(
      "Two changes:",
      GOOD_LIMITER,
      editblock(
        P.handlers,
        '    sendJson(res, 401, { error: "not signed in" });',
        '    sendJson(res, 401, { error: "sign in required" });',
      ),
    ),
  ),
  refusal(
    "transaction-missing-original-among-creates",
    "transaction",
    "patch",
    ["missing-original"],
    "A creation and an update of a missing file: the creation is not kept either.",
    { [P.limiter]: S.limiter },
    reply(
      "New error type and its use:",
      fence(
        patchDoc(
          patchAdd("src/errors.ts", ERRORS_TS),
          [
            "*** Update File: src/quota.ts",
            "@@",
            '-import { EventEmitter } from "node:events";',
            '+import { QuotaExhausted } from "./errors.js";',
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
  refusal(
    "transaction-truncated-last-block",
    "transaction",
    "editblock",
    ["invalid-format"],
    "Two complete blocks, then a third cut off mid-REPLACE: nothing is written.",
    both,
    `Three changes.\n\n${GOOD_LIMITER}\n\n${GOOD_HANDLERS}\n\n${P.limiter}\n\`\`\`typescript\n<<<<<<< SEARCH\n  available(): number {\n    this.refill();\n=======\n  available(): number {\n    this.refill();\n    if (this.tokens >= this.opt`,
  ),
];

const LIMIT_BLOCK_HEAD = `${P.handlers}\n\`\`\`typescript\n<<<<<<< SEARCH\n${HANDLER_LIMIT}\n`;
export const INVALID_FORMAT: CaseSpec[] = [
  refusal(
    "invalid-format-truncated-replace",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "The reply stops inside REPLACE (no `>>>>>>> REPLACE`, no closing fence): the REPLACE may be incomplete.",
    { [P.handlers]: S.handlers },
    `Raising the page size and sending a cursor:\n\n${LIMIT_BLOCK_HEAD}  sendJson(res, 200, { orders });\n=======\n  const orders = await listOrders(session.userId, { limit: 100 });\n  sendJson(res, 200, { orders, next`,
  ),
  refusal(
    "invalid-format-truncated-search",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "The reply stops inside SEARCH.",
    { [P.handlers]: S.handlers },
    `Raising the page size:\n\n${LIMIT_BLOCK_HEAD}  sendJson(res, 200, { ord`,
  ),
  refusal(
    "invalid-format-unclosed-fence-whole",
    "invalid-format",
    "whole",
    ["invalid-format"],
    "A whole-file reply whose fence never closes: the content is cut, writing it would truncate the file.",
    { [P.settings]: S.settings },
    `Updated settings:\n\n${P.settings}\n\`\`\`json\n${S.settings.split("\n").slice(0, 12).join("\n")}\n`,
  ),
  refusal(
    "invalid-format-patch-no-end",
    "invalid-format",
    "patch",
    ["invalid-format"],
    "apply_patch without `*** End Patch`: the envelope is incomplete.",
    { [P.yaml]: S.yaml },
    reply("Pool size:", fence(patchDoc(patchUpdate(P.yaml, S.yaml, yamlMax)).replace(/\n\*\*\* End Patch$/, ""), "")),
  ),
  refusal(
    "invalid-format-missing-divider",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "SEARCH/REPLACE without the `=======` divider: SEARCH and REPLACE cannot be told apart.",
    { [P.handlers]: S.handlers },
    `Page size:\n\n${LIMIT_BLOCK_HEAD}${HANDLER_LIMIT.replace("50", "100")}\n>>>>>>> REPLACE\n\`\`\`\n`,
  ),
  refusal(
    "invalid-format-patch-bad-header",
    "invalid-format",
    "patch",
    ["invalid-format"],
    "`*** Modify File:` is not an apply_patch action.",
    { [P.yaml]: S.yaml },
    reply(
      "Pool size:",
      fence(patchDoc(patchUpdate(P.yaml, S.yaml, yamlMax).replace("*** Update File:", "*** Modify File:")), ""),
    ),
  ),
  refusal(
    "invalid-format-patch-line-without-prefix",
    "invalid-format",
    "patch",
    ["invalid-format"],
    "An update chunk with a non-blank line that has no ' ', '-' or '+' prefix.",
    { [P.yaml]: S.yaml },
    reply(
      "Cache TTL:",
      fence(
        patchDoc(
          [
            `*** Update File: ${P.yaml}`,
            "@@",
            " cache:",
            "enabled: true",
            "-  ttl: 5m",
            "+  ttl: 10m",
            "   max_entries: 10000",
          ].join("\n"),
        ),
        "",
      ),
    ),
  ),
  refusal(
    "invalid-format-editblock-no-path",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "A SEARCH/REPLACE block with no path anywhere near it: the engine must not guess the file.",
    both,
    reply(
      "Change this:",
      `\`\`\`typescript\n<<<<<<< SEARCH\n${HANDLER_LIMIT}\n=======\n${HANDLER_LIMIT.replace("50", "100")}\n>>>>>>> REPLACE\n\`\`\``,
    ),
  ),
  refusal(
    "invalid-format-markers-out-of-order",
    "invalid-format",
    "editblock",
    ["invalid-format"],
    "`>>>>>>> REPLACE` before `=======`: garbled markers.",
    { [P.handlers]: S.handlers },
    reply(
      "Page size:",
      `${P.handlers}\n\`\`\`typescript\n<<<<<<< SEARCH\n${HANDLER_LIMIT}\n>>>>>>> REPLACE\n${HANDLER_LIMIT.replace("50", "100")}\n=======\n\`\`\``,
    ),
  ),
];
