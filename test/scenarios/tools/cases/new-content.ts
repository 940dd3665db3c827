/** Small new files the creation, move and deletion cases write (LF, final newline). */

export const PRESETS_TS = `import type { RateLimiterOptions } from "../rate-limiter.js";

/** Limits agreed with the API gateway team; keep in sync with gateway/limits.yaml. */
export const PRESETS = {
  anonymous: { capacity: 10, refillPerSecond: 0.5 },
  signedIn: { capacity: 60, refillPerSecond: 2 },
  partner: { capacity: 600, refillPerSecond: 20 },
} satisfies Record<string, RateLimiterOptions>;

export type PresetName = keyof typeof PRESETS;
`;

export const XML_EXPORT_PY = `"""XML export, kept separate because it pulls in ElementTree."""

from pathlib import Path
from xml.etree import ElementTree


def export_xml(rows, destination: Path) -> int:
    root = ElementTree.Element("rows")
    for row in rows:
        ElementTree.SubElement(root, "row", attrib={k: str(v) for k, v in row.items()})
    destination.parent.mkdir(parents=True, exist_ok=True)
    ElementTree.ElementTree(root).write(destination, encoding="utf-8", xml_declaration=True)
    return len(rows)
`;

export const CACHE_TEST_GO = `package store

import (
\t"testing"
\t"time"
)

func TestGetAfterExpiry(t *testing.T) {
\tnow := time.Unix(0, 0)
\tc := New(time.Minute, 10)
\tc.now = func() time.Time { return now }
\tc.Put("k", []byte("v"))
\tnow = now.Add(2 * time.Minute)
\tif _, err := c.Get("k"); err != ErrNotFound {
\t\tt.Fatalf("expected ErrNotFound, got %v", err)
\t}
}
`;

export const RUNBOOK_MD = `# Inventory service runbook

## Symptoms and first steps

- **Health check failing**: check \`/healthz\`, then the database connection count.
- **Slow reindex**: look at the \`reindex\` job duration in the dashboard; it should finish in under 45 minutes.
- **Reservations stuck**: run the \`prune-reservations\` job by hand.

## Escalation

Page the on-call engineer through the usual rota. Include the request id from the logs.
`;

export const KUSTOMIZATION_YAML = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
patches:
  - path: replicas.yaml
namespace: inventory-staging
`;

export const DOCKER_MK = `# Container targets, included from the main Makefile.
IMAGE ?= registry.internal/inventory

docker-build:
\tdocker build -t $(IMAGE):$(VERSION) .

docker-push: docker-build
\tdocker push $(IMAGE):$(VERSION)
`;

export const FLAGS_JSON = `{
  "bulkImport": false,
  "reservationsV2": true,
  "auditLog": false
}
`;

export const ERRORS_TS = `export class QuotaExhausted extends Error {
  constructor(readonly resetAt: Date) {
    super(\`quota exhausted until \${resetAt.toISOString()}\`);
    this.name = "QuotaExhausted";
  }
}
`;
