/** creation and creation-collision: new files are created with their folders; creation never overwrites. */
import { editblock, fence, patchAdd, patchDoc, reply, udiffCreate, wholeFile } from "../render.js";
import { swap } from "../spec.js";
import type { CaseSpec, CaseFormat } from "../spec.js";
import { P, S, tree } from "./common.js";
import {
  CACHE_TEST_GO,
  DOCKER_MK,
  ERRORS_TS,
  FLAGS_JSON,
  KUSTOMIZATION_YAML,
  PRESETS_TS,
  RUNBOOK_MD,
  XML_EXPORT_PY,
} from "./new-content.js";

const created = (
  id: string,
  format: CaseFormat,
  note: string,
  before: Record<string, string>,
  after: Record<string, string>,
  body: string,
): CaseSpec => ({
  id,
  category: "creation",
  format,
  expect: "apply",
  note,
  before: tree(before),
  after: tree(after),
  reply: body,
});

const strip = (text: string): string => text.replace(/\n$/, "");
const LIMITER_IMPORT = 'import { EventEmitter } from "node:events";';
const LIMITER_IMPORT_TO = 'import { EventEmitter } from "node:events";\nimport { QuotaExhausted } from "./errors.js";';

export const CREATION: CaseSpec[] = [
  created(
    "creation-editblock-empty-search-nested",
    "editblock",
    "Empty SEARCH for a path in folders that do not exist yet: the folders and the file are created.",
    { [P.limiter]: S.limiter },
    { [P.limiter]: S.limiter, "src/limits/presets.ts": PRESETS_TS },
    reply("Here are the agreed presets in a new module:", editblock("src/limits/presets.ts", "", strip(PRESETS_TS))),
  ),
  created(
    "creation-udiff-dev-null",
    "udiff",
    "`--- /dev/null` creates the file in a new folder.",
    { [P.exporters]: S.exporters },
    { [P.exporters]: S.exporters, "app/formats/xml_export.py": XML_EXPORT_PY },
    reply("A separate XML exporter:", fence(udiffCreate("app/formats/xml_export.py", XML_EXPORT_PY))),
  ),
  created(
    "creation-patch-add-file",
    "patch",
    "`*** Add File` with tab-indented Go content, written verbatim.",
    { [P.cache]: S.cache },
    { [P.cache]: S.cache, "internal/store/cache_test.go": CACHE_TEST_GO },
    reply("A test for expiry:", fence(patchDoc(patchAdd("internal/store/cache_test.go", CACHE_TEST_GO)), "")),
  ),
  created(
    "creation-whole-new-path",
    "whole",
    "A whole-file block for a path that does not exist creates it.",
    { [P.yaml]: S.yaml },
    { [P.yaml]: S.yaml, "docs/runbook.md": RUNBOOK_MD },
    reply(
      "I've drafted a runbook:",
      wholeFile("docs/runbook.md", RUNBOOK_MD),
      "Adjust the escalation section to your rota tool.",
    ),
  ),
  created(
    "creation-patch-two-adds",
    "patch",
    "Two `*** Add File` sections in one patch.",
    { [P.limiter]: S.limiter },
    { [P.limiter]: S.limiter, "src/limits/presets.ts": PRESETS_TS, "src/errors.ts": ERRORS_TS },
    reply(
      "Two new modules:",
      fence(patchDoc(patchAdd("src/limits/presets.ts", PRESETS_TS), patchAdd("src/errors.ts", ERRORS_TS)), ""),
    ),
  ),
  created(
    "creation-editblock-create-then-import",
    "editblock",
    "One block creates a module, the next edits an existing file to import it.",
    { [P.limiter]: S.limiter },
    { [P.limiter]: swap(S.limiter, LIMITER_IMPORT, LIMITER_IMPORT_TO), "src/errors.ts": ERRORS_TS },
    reply(
      "First the error type:",
      editblock("src/errors.ts", "", strip(ERRORS_TS)),
      "Then import it in the limiter:",
      editblock(P.limiter, LIMITER_IMPORT, LIMITER_IMPORT_TO),
    ),
  ),
  created(
    "creation-udiff-deep-nested",
    "udiff",
    "Creation four folders deep.",
    { [P.yaml]: S.yaml },
    { [P.yaml]: S.yaml, "deploy/k8s/overlays/staging/kustomization.yaml": KUSTOMIZATION_YAML },
    reply(
      "A staging overlay:",
      fence(udiffCreate("deploy/k8s/overlays/staging/kustomization.yaml", KUSTOMIZATION_YAML)),
    ),
  ),
  created(
    "creation-editblock-makefile-include",
    "editblock",
    "A new Makefile fragment created from an empty SEARCH; its recipe tabs are kept.",
    { [P.makefile]: S.makefile },
    { [P.makefile]: S.makefile, "mk/docker.mk": DOCKER_MK },
    reply(
      "Container targets in their own fragment:",
      editblock("mk/docker.mk", "", strip(DOCKER_MK)),
      "Add `include mk/docker.mk` to the Makefile when you're ready.",
    ),
  ),
  created(
    "creation-whole-json",
    "whole",
    "A new JSON file from a whole-file block.",
    { [P.settings]: S.settings },
    { [P.settings]: S.settings, "config/feature-flags.json": FLAGS_JSON },
    reply("The flags file:", wholeFile("config/feature-flags.json", FLAGS_JSON)),
  ),
];

const collision = (
  id: string,
  format: CaseFormat,
  note: string,
  before: Record<string, string>,
  body: string,
): CaseSpec => ({
  id,
  category: "creation-collision",
  format,
  expect: "refuse",
  reasons: ["file-exists"],
  note,
  before: tree(before),
  reply: body,
});

export const COLLISION: CaseSpec[] = [
  collision(
    "creation-collision-editblock-empty-search",
    "editblock",
    "Empty SEARCH naming an existing file: creation never overwrites (nor appends).",
    { [P.handlers]: S.handlers },
    reply(
      "A health handler:",
      editblock(
        P.handlers,
        "",
        "export function health(res: ServerResponse): void {\n  sendJson(res, 200, { ok: true });\n}",
      ),
    ),
  ),
  collision(
    "creation-collision-udiff-dev-null",
    "udiff",
    "`--- /dev/null` for the existing Makefile.",
    { [P.makefile]: S.makefile },
    reply("A minimal Makefile:", fence(udiffCreate("Makefile", "build:\n\tgo build ./...\n"))),
  ),
  collision(
    "creation-collision-patch-add",
    "patch",
    "`*** Add File` for the existing config/app.yaml.",
    { [P.yaml]: S.yaml },
    reply("Default config:", fence(patchDoc(patchAdd(P.yaml, "service:\n  name: inventory\n  port: 8080\n")), "")),
  ),
  collision(
    "creation-collision-same-path-twice",
    "patch",
    "The same new path is added twice in one reply: the second creation collides with the first.",
    { [P.limiter]: S.limiter },
    reply(
      "Presets, and a revised version of them:",
      fence(
        patchDoc(
          patchAdd("src/limits/presets.ts", PRESETS_TS),
          patchAdd("src/limits/presets.ts", PRESETS_TS.replace("600", "1200")),
        ),
        "",
      ),
    ),
  ),
  collision(
    "creation-collision-among-new-files",
    "patch",
    "One new file plus one existing path: refused as a whole, the new file is not written either.",
    { [P.limiter]: S.limiter },
    reply(
      "Two modules:",
      fence(patchDoc(patchAdd("src/errors.ts", ERRORS_TS), patchAdd(P.limiter, "export {};\n")), ""),
    ),
  ),
  collision(
    "creation-collision-udiff-new-file-mode",
    "udiff",
    "git-style `new file mode` diff for a path that exists.",
    { [P.limiter]: S.limiter },
    reply("A fresh limiter:", fence(udiffCreate(P.limiter, "export class RateLimiter {}\n"))),
  ),
];
