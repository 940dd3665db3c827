/** multi-file: several files, several dialects, one reply. */
import { editblock, fence, patchAdd, patchDelete, patchDoc, patchUpdate, reply, udiff, wholeFile } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, applied, HANDLER_LIMIT } from "./common.js";
import { ERRORS_TS } from "./new-content.js";

const LIMITER_RETURN = "    this.tokens -= count;\n    return true;";
const LIMITER_RETURN_TO = '    this.tokens -= count;\n    this.emit("removed", count);\n    return true;';
const HANDLER_LIMIT_TO = "  const orders = await listOrders(session.userId, { limit: 100 });";
const YAML_FROM = "  reservations_v2: true";
const YAML_TO = "  reservations_v2: true\n  orders_page_100: true";
const limiterAfter = swap(S.limiter, LIMITER_RETURN, LIMITER_RETURN_TO);
const handlersAfter = swap(S.handlers, HANDLER_LIMIT, HANDLER_LIMIT_TO);
const yamlAfter = swap(S.yaml, YAML_FROM, YAML_TO);
const three = { [P.limiter]: S.limiter, [P.handlers]: S.handlers, [P.yaml]: S.yaml };
const threeAfter = { [P.limiter]: limiterAfter, [P.handlers]: handlersAfter, [P.yaml]: yamlAfter };
const serverAfter = swap(S.server, '\t\taddr = ":8080"', '\t\taddr = ":9090"');
const cacheAfter = swap(S.cache, "\t\tc.evictExpired()", "\t\tc.evictExpired()\n\t\tc.evictions++");

export const MULTI_FILE: CaseSpec[] = [
  applied(
    "multi-file-editblock-three-files",
    "multi-file",
    "editblock",
    "Three SEARCH/REPLACE blocks on three files.",
    three,
    threeAfter,
    reply(
      "Paging to 100 behind a flag, and a `removed` event:",
      editblock(P.handlers, HANDLER_LIMIT, HANDLER_LIMIT_TO),
      editblock(P.yaml, YAML_FROM, YAML_TO),
      editblock(P.limiter, LIMITER_RETURN, LIMITER_RETURN_TO),
    ),
  ),
  applied(
    "multi-file-mixed-editblock-udiff",
    "multi-file",
    "mixed",
    "A SEARCH/REPLACE block and a unified diff in one reply.",
    three,
    threeAfter,
    reply(
      "Handlers and config as a diff:",
      fence(`${udiff(P.handlers, S.handlers, handlersAfter)}\n${udiff(P.yaml, S.yaml, yamlAfter)}`),
      "And the limiter:",
      editblock(P.limiter, LIMITER_RETURN, LIMITER_RETURN_TO),
    ),
  ),
  applied(
    "multi-file-udiff-one-fence",
    "multi-file",
    "udiff",
    "One fenced diff touching three files.",
    three,
    threeAfter,
    reply(
      "All three changes:",
      fence(
        [
          udiff(P.handlers, S.handlers, handlersAfter),
          udiff(P.yaml, S.yaml, yamlAfter),
          udiff(P.limiter, S.limiter, limiterAfter),
        ].join("\n"),
      ),
    ),
  ),
  applied(
    "multi-file-patch-three-updates",
    "multi-file",
    "patch",
    "One apply_patch with three Update sections.",
    three,
    threeAfter,
    reply(
      "Patch:",
      fence(
        patchDoc(
          patchUpdate(P.handlers, S.handlers, handlersAfter),
          patchUpdate(P.yaml, S.yaml, yamlAfter),
          patchUpdate(P.limiter, S.limiter, limiterAfter),
        ),
        "",
      ),
    ),
  ),
  applied(
    "multi-file-mixed-patch-and-whole",
    "multi-file",
    "mixed",
    "An apply_patch for one file and a whole-file block for another.",
    { [P.server]: S.server, [P.settings]: S.settings },
    {
      [P.server]: serverAfter,
      [P.settings]: swap(S.settings, '  "refreshIntervalSeconds": 30,', '  "refreshIntervalSeconds": 15,'),
    },
    reply(
      "Server default port:",
      fence(patchDoc(patchUpdate(P.server, S.server, serverAfter)), ""),
      "And the dashboard settings in full:",
      wholeFile(P.settings, swap(S.settings, '  "refreshIntervalSeconds": 30,', '  "refreshIntervalSeconds": 15,')),
    ),
  ),
  applied(
    "multi-file-mixed-all-dialects",
    "multi-file",
    "mixed",
    "SEARCH/REPLACE, unified diff and apply_patch in one reply, one file each.",
    { [P.cache]: S.cache, [P.handlers]: S.handlers, [P.yaml]: S.yaml },
    { [P.cache]: cacheAfter, [P.handlers]: handlersAfter, [P.yaml]: yamlAfter },
    reply(
      "Cache eviction counter:",
      editblock(P.cache, "\t\tc.evictExpired()", "\t\tc.evictExpired()\n\t\tc.evictions++"),
      "Handlers:",
      fence(udiff(P.handlers, S.handlers, handlersAfter)),
      "Config:",
      fence(patchDoc(patchUpdate(P.yaml, S.yaml, yamlAfter)), ""),
    ),
  ),
  applied(
    "multi-file-patch-add-update-delete",
    "multi-file",
    "patch",
    "Add, Update and Delete sections in one patch.",
    { [P.limiter]: S.limiter, [P.tokenizer]: S.tokenizer },
    { [P.limiter]: limiterAfter, "src/errors.ts": ERRORS_TS },
    reply(
      "Housekeeping:",
      fence(
        patchDoc(
          patchAdd("src/errors.ts", ERRORS_TS),
          patchUpdate(P.limiter, S.limiter, limiterAfter),
          patchDelete(P.tokenizer),
        ),
        "",
      ),
    ),
  ),
];

export const LIMITER_EDIT = { from: LIMITER_RETURN, to: LIMITER_RETURN_TO } as const;
