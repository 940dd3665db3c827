/** bom and final-newline: the BOM and the final-newline state survive every edit. */
import { fence, reply, wholeFile } from "../render.js";
import { bom, crlf, noFinalNewline, spacesToTabs, swaps } from "../spec.js";
import type { CaseSpec } from "../spec.js";
import { P, S, oneFile, tree } from "./common.js";

const SETTINGS_V2 = swaps(S.settings, [
  [`  "refreshIntervalSeconds": 30,`, `  "refreshIntervalSeconds": 60,`],
  [`    "lowStockAlerts": true`, `    "lowStockAlerts": true,\n    "reorderSuggestions": true`],
]);

const BILLING_DOC = `"""Invoice arithmetic for the billing service."""`;
const SETUP_TITLE = "# Inventory service — local setup";

export const BOMS: CaseSpec[] = [
  oneFile({
    id: "bom-first-line-editblock",
    category: "bom",
    note: "BOM file, SEARCH starts at line 1 (without the BOM): it matches and the BOM stays.",
    key: "billing",
    dress: bom,
    from: `${BILLING_DOC}

from __future__ import annotations`,
    to: `"""Invoice arithmetic for the billing service.

Amounts are Decimals rounded half-up to the cent.
"""

from __future__ import annotations`,
    say: "Documenting the rounding rule in the module docstring:",
  }),
  oneFile({
    id: "bom-first-line-udiff",
    category: "bom",
    note: "Unified diff replacing line 1 of a Markdown file that starts with a BOM.",
    key: "setup",
    dress: bom,
    render: "udiff",
    from: SETUP_TITLE,
    to: "# Inventory service: local development setup",
    say: "A clearer title for the setup guide:",
  }),
  oneFile({
    id: "bom-insert-above-first-line-patch",
    category: "bom",
    note: "apply_patch inserting a line above line 1: the BOM stays at the very start, before the new line.",
    key: "orders",
    dress: bom,
    render: "patch",
    from: "package com.acme.orders;",
    to: "// SPDX-License-Identifier: Apache-2.0\npackage com.acme.orders;",
    say: "Adding the licence header the compliance check asks for:",
  }),
  oneFile({
    id: "bom-edit-middle",
    category: "bom",
    note: "Editing the middle of a BOM file keeps the BOM.",
    key: "settings",
    dress: bom,
    from: `    "defaultPageSize": 25,`,
    to: `    "defaultPageSize": 50,`,
    say: "Bumping the default page size:",
  }),
  oneFile({
    id: "bom-crlf-first-line",
    category: "bom",
    note: "BOM and CRLF together; the first line is replaced.",
    key: "yaml",
    dress: (t) => bom(crlf(t)),
    from: "# Runtime configuration for the inventory service.",
    to: "# Runtime configuration for the inventory service (production defaults).",
    say: "Clarify that these are the production defaults:",
  }),
  {
    id: "bom-whole-rewrite",
    category: "bom",
    format: "whole",
    expect: "apply",
    note: "Whole-file rewrite of a BOM file; the model never writes the BOM, the file keeps it.",
    before: tree({ [P.settings]: bom(S.settings) }),
    after: tree({ [P.settings]: bom(SETTINGS_V2) }),
    reply: reply("Updated settings:", wholeFile(P.settings, SETTINGS_V2), "Nothing else changes."),
  },
  oneFile({
    id: "bom-delete-first-line",
    category: "bom",
    note: "Deleting line 1 of a BOM file: the BOM moves onto the new first line.",
    key: "messages",
    dress: bom,
    from: `// User-facing strings for the checkout flow. Keep them short: they are shown in toasts.

export type MessageKey = "loading" | "paymentFailed" | "cartEmpty" | "outOfStock" | "saved" | "offline";`,
    to: `export type MessageKey = "loading" | "paymentFailed" | "cartEmpty" | "outOfStock" | "saved" | "offline";`,
    say: "The header comment duplicates the README; dropping it:",
  }),
];

const YAML_TAIL_FROM = `features:
  bulk_import: false
  reservations_v2: true`;

export const FINAL_NEWLINES: CaseSpec[] = [
  oneFile({
    id: "final-newline-last-line-editblock",
    category: "final-newline",
    note: "File without a final newline; the last line is edited and a line added after it; still no final newline.",
    key: "yaml",
    dress: noFinalNewline,
    from: YAML_TAIL_FROM,
    to: `features:
  bulk_import: true
  reservations_v2: true
  audit_log: false`,
    say: "Turning on bulk import and adding the audit-log flag (off for now):",
  }),
  oneFile({
    id: "final-newline-udiff-with-markers",
    category: "final-newline",
    note: "udiff with `\\ No newline at end of file` on both sides of the last line.",
    key: "settings",
    dress: noFinalNewline,
    render: "udiff",
    from: `  "locale": "en-GB"
}`,
    to: `  "locale": "en-IE"
}`,
    say: "The Dublin warehouse needs the Irish locale:",
  }),
  oneFile({
    id: "final-newline-udiff-without-markers",
    category: "final-newline",
    note: "udiff touching the last line of a file without final newline, with no `\\ No newline` marker: keep the file's state.",
    key: "settings",
    dress: noFinalNewline,
    render: "udiff",
    udiff: { dropNoNewline: true },
    from: `  "locale": "en-GB"
}`,
    to: `  "locale": "en-GB",
  "timezone": "Europe/London"
}`,
    say: "Adding an explicit timezone:",
  }),
  oneFile({
    id: "final-newline-patch-end-of-file",
    category: "final-newline",
    note: "apply_patch chunk at the end of a file lacking a final newline.",
    key: "cache",
    dress: noFinalNewline,
    render: "patch",
    endOfFile: true,
    from: `\t\tif now.After(e.expires) {
\t\t\tdelete(c.items, key)
\t\t}
\t}
}`,
    to: `\t\tif now.After(e.expires) {
\t\t\tdelete(c.items, key)
\t\t}
\t}
}

// Len reports how many entries are stored, expired or not.
func (c *Cache) Len() int {
\tc.mu.Lock()
\tdefer c.mu.Unlock()
\treturn len(c.items)
}`,
    say: "Adding `Len` for the metrics exporter:",
  }),
  oneFile({
    id: "final-newline-edit-middle",
    category: "final-newline",
    note: "Edit in the middle of a file without a final newline.",
    key: "billing",
    dress: noFinalNewline,
    from: `    currency: str = "EUR"`,
    to: `    currency: str = "EUR"
    due_days: int = 30`,
    say: "Invoices need a payment term:",
  }),
  oneFile({
    id: "final-newline-append-after-last-line",
    category: "final-newline",
    note: "Appending a target after the last line of a Makefile that has no final newline.",
    key: "makefile",
    dress: noFinalNewline,
    from: spacesToTabs(`    sha256sum dist/$(BINARY)-$(VERSION).tar.gz > dist/SHA256SUMS`),
    to: spacesToTabs(`    sha256sum dist/$(BINARY)-$(VERSION).tar.gz > dist/SHA256SUMS

checksums: release
    cat dist/SHA256SUMS`),
    say: "A `checksums` helper target:",
  }),
  oneFile({
    id: "final-newline-crlf-last-line",
    category: "final-newline",
    note: "CRLF file without a final newline; the last lines are replaced; CRLF inside, still no final newline.",
    key: "yaml",
    dress: (t) => noFinalNewline(crlf(t)),
    from: YAML_TAIL_FROM,
    to: `features:
  bulk_import: false
  reservations_v2: false`,
    say: "Rolling back reservations v2 until the migration is fixed:",
  }),
  {
    id: "final-newline-udiff-adds-newline",
    category: "final-newline",
    format: "udiff",
    expect: "apply",
    note: "The udiff states the change explicitly: the old side had `\\ No newline`, the new side does not, so the newline is added.",
    before: tree({ [P.settings]: noFinalNewline(S.settings) }),
    after: tree({ [P.settings]: S.settings }),
    reply: reply(
      "The file is missing its final newline, which makes every diff touching the last line noisy:",
      fence(
        [
          `--- a/${P.settings}`,
          `+++ b/${P.settings}`,
          "@@ -21,3 +21,3 @@",
          `   },`,
          `   "locale": "en-GB"`,
          "-}",
          "\\ No newline at end of file",
          "+}",
        ].join("\n"),
      ),
    ),
  },
  {
    id: "final-newline-whole-keeps-missing",
    category: "final-newline",
    format: "whole",
    expect: "apply",
    note: "Whole-file rewrite of a file without a final newline: the fence cannot express its absence, the file keeps it.",
    before: tree({ [P.settings]: noFinalNewline(S.settings) }),
    after: tree({ [P.settings]: noFinalNewline(SETTINGS_V2) }),
    reply: reply("Full file:", wholeFile(P.settings, SETTINGS_V2)),
  },
];
