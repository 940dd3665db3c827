/** path-safety: nothing is written outside the root, whatever the path or symlink. */
import { editblock, fence, patchAdd, patchDoc, patchUpdate, reply, udiffCreate, wholeFile } from "../render.js";
import type { CaseSpec } from "../spec.js";
import { P, S, refusal, tree } from "./common.js";
import { ERRORS_TS } from "./new-content.js";

import { handlersMoved } from "./moves.js";

const CANARY_ABS = "/tmp/patchsmith-canary-absolute.txt";
const SECRET_FROM = "token: do-not-touch";

export const PATH_SAFETY: CaseSpec[] = [
  refusal(
    "path-safety-dotdot-create",
    "path-safety",
    "editblock",
    ["unsafe-path"],
    "An empty SEARCH for ../escape.txt would create a file beside the root.",
    tree({ [P.limiter]: S.limiter }),
    reply("A note for the next person:", editblock("../escape.txt", "", "hello from outside the repository")),
  ),
  refusal(
    "path-safety-absolute-add-file",
    "path-safety",
    "patch",
    ["unsafe-path"],
    "`*** Add File` with an absolute path.",
    tree({ [P.limiter]: S.limiter }),
    reply("Cache the token:", fence(patchDoc(patchAdd(CANARY_ABS, "cached\n")), "")),
    [CANARY_ABS],
  ),
  refusal(
    "path-safety-src-dotdot-udiff",
    "path-safety",
    "udiff",
    ["unsafe-path"],
    "src/../../escape.ts normalises to a path above the root.",
    tree({ [P.limiter]: S.limiter }),
    reply("A shared helper:", fence(udiffCreate("src/../../escape.ts", "export const escaped = true;\n"))),
  ),
  refusal(
    "path-safety-windows-drive",
    "path-safety",
    "whole",
    ["unsafe-path"],
    "A Windows drive path is absolute, even on Linux where it would be a legal file name.",
    tree({ [P.limiter]: S.limiter }),
    reply("Save this to your notes:", wholeFile("C:\\Users\\dev\\notes.txt", "remember to rotate the keys\n")),
  ),
  refusal(
    "path-safety-absolute-update",
    "path-safety",
    "editblock",
    ["unsafe-path"],
    "An update of /etc/hosts: absolute paths are refused before anything is read.",
    tree({ [P.limiter]: S.limiter }),
    reply(
      "Point the API host at staging:",
      editblock("/etc/hosts", "127.0.0.1 localhost", "127.0.0.1 localhost inventory.internal"),
    ),
  ),
  refusal(
    "path-safety-backslash-dotdot",
    "path-safety",
    "whole",
    ["unsafe-path"],
    "..\\..\\escape.txt climbs out with Windows separators.",
    tree({ [P.limiter]: S.limiter }),
    reply("Drop this next to the repo:", wholeFile("..\\..\\escape.txt", "outside\n")),
  ),
  refusal(
    "path-safety-symlink-dir",
    "path-safety",
    "patch",
    ["unsafe-path"],
    "vendor/ is a symlink to a folder outside the root; creating vendor/pwned.txt would write outside.",
    { ...tree({ [P.limiter]: S.limiter }), vendor: { symlink: "../outside" } },
    reply("Vendor the helper:", fence(patchDoc(patchAdd("vendor/pwned.txt", "written through a symlink\n")), "")),
  ),
  refusal(
    "path-safety-symlink-file",
    "path-safety",
    "editblock",
    ["unsafe-path"],
    "config/shared.yaml is a symlink to a file outside the root; editing it would change that file.",
    { ...tree({ [P.limiter]: S.limiter }), "config/shared.yaml": { symlink: "../../outside/secret.txt" } },
    reply("Rotate the token:", editblock("config/shared.yaml", SECRET_FROM, "token: rotated")),
  ),
  refusal(
    "path-safety-move-out",
    "path-safety",
    "patch",
    ["unsafe-path"],
    "`*** Move to: ../stolen.ts` would move a file out of the root.",
    tree({ [P.handlers]: S.handlers }),
    reply(
      "Moving the handlers:",
      fence(patchDoc(patchUpdate(P.handlers, S.handlers, handlersMoved, { moveTo: "../stolen.ts" })), ""),
    ),
  ),
  refusal(
    "path-safety-among-good",
    "path-safety",
    "editblock",
    ["unsafe-path"],
    "A good edit and an escaping creation in one reply: nothing is written anywhere.",
    tree({ [P.limiter]: S.limiter }),
    reply(
      "Two things:",
      editblock(
        P.limiter,
        "    this.tokens -= count;\n    return true;",
        '    this.tokens -= count;\n    this.emit("removed", count);\n    return true;',
      ),
      editblock("src/../../../escape.ts", "", 'export const error = new Error("escaped");'),
      editblock("src/errors.ts", "", ERRORS_TS.replace(/\n$/, "")),
    ),
  ),
];
