/** path-decoration and whole-file. */
import { fence, patchDoc, patchUpdate, reply, wholeFile, type PathStyle } from "../render.js";
import { spacesToTabs, swap } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { HANDLER_LIMIT, P, S, applied, oneFile, refusal, type Key } from "./common.js";
import { LIMITER_EDIT } from "./multi-file.js";

const deco = (id: string, style: PathStyle, key: Key, from: string, to: string, say: string): CaseSpec =>
  oneFile({
    id,
    category: "path-decoration",
    note: `Path written in the "${style}" style; cleaned to the real path.`,
    key,
    from,
    to,
    say,
    style,
  });

const handlersRewrite = swap(S.handlers, HANDLER_LIMIT, HANDLER_LIMIT.replace("50", "100"));
const yamlMax = swap(S.yaml, "    max: 10", "    max: 20");

export const PATH_DECORATION: CaseSpec[] = [
  deco("path-decoration-backticks", "backticks", "limiter", LIMITER_EDIT.from, LIMITER_EDIT.to, "Emit `removed`:"),
  deco(
    "path-decoration-bold",
    "bold",
    "billing",
    '    currency: str = "EUR"',
    '    currency: str = "GBP"',
    "Default to sterling for the UK entity:",
  ),
  deco(
    "path-decoration-heading",
    "heading",
    "server",
    '\t\taddr = ":8080"',
    '\t\taddr = ":8000"',
    "Port 8000 matches the ingress:",
  ),
  deco("path-decoration-dot-slash", "dot", "yaml", "  log_level: info", "  log_level: warn", "Quieter logs:"),
  deco(
    "path-decoration-file-label",
    "label",
    "settings",
    '  "locale": "en-GB"',
    '  "locale": "en-US"',
    "US locale for the new warehouse:",
  ),
  deco(
    "path-decoration-inside-fence",
    "inside",
    "tokenizer",
    "    Slash,\n    LParen,",
    "    Slash,\n    Percent,\n    LParen,",
    "A token for `%`:",
  ),
  deco(
    "path-decoration-trailing-colon",
    "colon",
    "makefile",
    "VERSION ?= $(shell git describe --tags --always --dirty)",
    "VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)",
    "Don't fail outside a git checkout:",
  ),
  deco(
    "path-decoration-bold-backticks",
    "bold-backticks",
    "handlers",
    HANDLER_LIMIT,
    HANDLER_LIMIT.replace("50", "100"),
    "Bigger page:",
  ),
  applied(
    "path-decoration-whole-heading",
    "path-decoration",
    "whole",
    "A whole-file block whose path is a Markdown heading.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersRewrite },
    reply("Full file:", wholeFile(P.handlers, handlersRewrite, { style: "heading" })),
  ),
  applied(
    "path-decoration-patch-dot-slash",
    "path-decoration",
    "patch",
    "`*** Update File: ./config/app.yaml`: the ./ is dropped.",
    { [P.yaml]: S.yaml },
    { [P.yaml]: yamlMax },
    reply("Pool size:", fence(patchDoc(patchUpdate(`./${P.yaml}`, S.yaml, yamlMax)), "")),
  ),
];

const exportersRewrite = swap(
  S.exporters,
  '        raise ValueError(f"unknown export kind: {kind}") from None',
  '        raise ValueError(f"unknown export kind: {kind!r}; expected one of {sorted(EXPORTERS)}") from None',
);
const makefileRewrite = swap(
  S.makefile,
  ".PHONY: all build test lint clean release",
  ".PHONY: all build test lint clean release fmt",
);
const whole = (
  id: string,
  note: string,
  before: Record<string, string>,
  after: Record<string, string>,
  body: string,
): CaseSpec => applied(id, "whole-file", "whole", note, before, after, body);

export const WHOLE_FILE: CaseSpec[] = [
  whole(
    "whole-file-rewrite-ts",
    "Rewrite of an existing TypeScript file.",
    { [P.handlers]: S.handlers },
    { [P.handlers]: handlersRewrite },
    reply("Here's the complete file with the larger page:", wholeFile(P.handlers, handlersRewrite)),
  ),
  whole(
    "whole-file-rewrite-py",
    "Rewrite of an existing Python file.",
    { [P.exporters]: S.exporters },
    { [P.exporters]: exportersRewrite },
    reply("Full file:", wholeFile(P.exporters, exportersRewrite), "Only the error message changed."),
  ),
  whole(
    "whole-file-rewrite-makefile",
    "Rewrite of a Makefile; its tabs are written as sent.",
    { [P.makefile]: S.makefile },
    { [P.makefile]: makefileRewrite },
    reply("Updated Makefile:", wholeFile(P.makefile, makefileRewrite)),
  ),
  whole(
    "whole-file-two-files",
    "Two whole-file blocks in one reply.",
    { [P.handlers]: S.handlers, [P.yaml]: S.yaml },
    { [P.handlers]: handlersRewrite, [P.yaml]: yamlMax },
    reply("Both files in full:", wholeFile(P.handlers, handlersRewrite), wholeFile(P.yaml, yamlMax)),
  ),
  refusal(
    "whole-file-excerpt-dots",
    "whole-file",
    "whole",
    ["invalid-format"],
    "A 'whole file' that elides most of the Go file with `...` lines: an excerpt, not a file.",
    { [P.cache]: S.cache },
    reply(
      "Here's the updated cache:",
      wholeFile(
        P.cache,
        spacesToTabs(`package store

...

// Len reports how many entries are stored.
func (c *Cache) Len() int {
    c.mu.Lock()
    defer c.mu.Unlock()
    return len(c.items)
}

...
`),
      ),
    ),
  ),
  refusal(
    "whole-file-excerpt-rest-unchanged",
    "whole-file",
    "whole",
    ["invalid-format"],
    "A Python 'whole file' ending with `# ... rest of the file unchanged ...`.",
    { [P.exporters]: S.exporters },
    reply(
      "Updated module:",
      wholeFile(
        P.exporters,
        `import csv
import json
import logging
from pathlib import Path

log = logging.getLogger(__name__)
MAX_ROWS = 1_000_000

# ... rest of the file unchanged ...
`,
      ),
    ),
  ),
  refusal(
    "whole-file-excerpt-existing-code",
    "whole-file",
    "whole",
    ["invalid-format"],
    "A Java 'whole file' with `// ... existing code ...` markers.",
    { [P.orders]: S.orders },
    reply(
      "Here's OrderService:",
      wholeFile(
        P.orders,
        `package com.acme.orders;

// ... existing code ...

    public Optional<Order> find(String orderId) {
        Objects.requireNonNull(orderId, "orderId");
        return repository.findById(orderId);
    }

    // ... existing code ...
}
`,
      ),
    ),
  ),
];
