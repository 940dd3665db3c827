/** deletion: a file is deleted only when it exists. */
import { fence, patchAdd, patchDelete, patchDoc, reply, udiffDelete } from "../render.js";
import type { CaseSpec, CaseFormat } from "../spec.js";
import { P, S, tree } from "./common.js";
import { CACHE_TEST_GO, XML_EXPORT_PY } from "./new-content.js";

const deleted = (
  id: string,
  format: CaseFormat,
  note: string,
  before: Record<string, string>,
  after: Record<string, string>,
  body: string,
): CaseSpec => ({
  id,
  category: "deletion",
  format,
  expect: "apply",
  note,
  before: tree(before),
  after: tree(after),
  reply: body,
});

const plainDelete = (path: string, content: string): string =>
  udiffDelete(path, content)
    .split("\n")
    .filter((l) => !l.startsWith("diff --git") && !l.startsWith("deleted file mode"))
    .join("\n");

export const DELETION: CaseSpec[] = [
  deleted(
    "deletion-udiff-dev-null",
    "udiff",
    "`+++ /dev/null` with every line removed deletes the file.",
    { [P.sync]: S.sync, [P.exporters]: S.exporters },
    { [P.exporters]: S.exporters },
    reply("The sync worker moved to its own service; remove it here:", fence(plainDelete(P.sync, S.sync))),
  ),
  deleted(
    "deletion-patch-delete-file",
    "patch",
    "`*** Delete File` removes the file.",
    { [P.tokenizer]: S.tokenizer, [P.limiter]: S.limiter },
    { [P.limiter]: S.limiter },
    reply("The Rust tokenizer is dead code now:", fence(patchDoc(patchDelete(P.tokenizer)), "")),
  ),
  deleted(
    "deletion-udiff-git-deleted-mode",
    "udiff",
    "git-style diff with `deleted file mode`.",
    { [P.makefile]: S.makefile, [P.yaml]: S.yaml },
    { [P.yaml]: S.yaml },
    reply("We build with the task runner now, so drop the Makefile:", fence(udiffDelete(P.makefile, S.makefile))),
  ),
  deleted(
    "deletion-patch-delete-and-add",
    "patch",
    "Delete one module and add its replacement in one patch.",
    { [P.exporters]: S.exporters },
    { "app/formats/xml_export.py": XML_EXPORT_PY },
    reply(
      "Replacing the old exporters module:",
      fence(patchDoc(patchDelete(P.exporters), patchAdd("app/formats/xml_export.py", XML_EXPORT_PY)), ""),
    ),
  ),
  deleted(
    "deletion-nested-sibling-stays",
    "patch",
    "Deleting one file of a folder leaves its sibling.",
    { [P.cache]: S.cache, "internal/store/cache_test.go": CACHE_TEST_GO },
    { [P.cache]: S.cache },
    reply(
      "That test is flaky and duplicated elsewhere:",
      fence(patchDoc(patchDelete("internal/store/cache_test.go")), ""),
    ),
  ),
  {
    id: "deletion-patch-missing-file",
    category: "deletion",
    format: "patch",
    expect: "refuse",
    reasons: ["missing-original"],
    note: "Deleting a file that does not exist.",
    before: tree({ [P.limiter]: S.limiter }),
    reply: reply("Remove the old limiter:", fence(patchDoc(patchDelete("src/legacy-limiter.ts")), "")),
  },
  {
    id: "deletion-udiff-missing-file",
    category: "deletion",
    format: "udiff",
    expect: "refuse",
    reasons: ["missing-original"],
    note: "A deletion diff for a path that is not in the tree.",
    before: tree({ [P.billing]: S.billing }),
    reply: reply("Drop the old invoice module:", fence(udiffDelete("app/invoices.py", "def legacy():\n    pass\n"))),
  },
];
