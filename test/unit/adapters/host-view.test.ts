/**
 * What of the host the sandbox shows, read from a real file system: the certificate authorities the host trusts
 * reach set-up (an enterprise CA, a TLS-inspecting proxy), and nothing more of the folder holding them.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readHostView } from "../../../src/adapters/sandbox/host-view.js";
import { createSandboxRunner } from "../../../src/adapters/sandbox/runner.js";
import { makeNodeRepo } from "../../fakes/git-repos.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function caFolder(): { dir: string; ca: string } {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-ca-"));
  made.push(dir);
  const ca = join(dir, "corporate-ca.pem");
  writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nMIIfake\n-----END CERTIFICATE-----\n");
  writeFileSync(join(dir, "neighbour-secret.txt"), "not for the sandbox\n");
  return { dir, ca };
}

describe("the host's certificate authorities", () => {
  it("passes the variables on and shows a file outside the view by itself, read-only", async () => {
    const { ca } = caFolder();
    const view = await readHostView({
      env: { PATH: "/usr/bin", NODE_EXTRA_CA_CERTS: ca, PIP_CERT: "/nonexistent/ca.pem", SSL_CERT_DIR: "/usr/lib" },
      home: homedir(),
      execPath: process.execPath,
      extraReadOnly: [],
    });
    expect(view.env.NODE_EXTRA_CA_CERTS).toBe(ca);
    expect(view.env.SSL_CERT_DIR).toBe("/usr/lib");
    expect(view.env.PIP_CERT).toBeUndefined();
    expect(view.toolchains.map((t) => t.path)).toContain(ca);
    // A path the system folders already show needs no mount of its own.
    expect(view.toolchains.map((t) => t.path)).not.toContain("/usr/lib");
  });

  it("set-up in the sandbox reads the CA file and nothing beside it", async () => {
    const { dir, ca } = caFolder();
    const repo = makeNodeRepo();
    made.push(repo.dir);
    const saved = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = ca;
    try {
      const runner = createSandboxRunner({ mode: "bwrap" });
      const run = await runner.run({
        command: `cat "$NODE_EXTRA_CA_CERTS"; cat ${join(dir, "neighbour-secret.txt")} || echo HIDDEN`,
        cwd: repo.dir,
        timeoutMs: 30_000,
        network: true,
      });
      expect(run.output).toContain("MIIfake");
      expect(run.output).toContain("HIDDEN");
      expect(run.output).not.toContain("not for the sandbox");
    } finally {
      if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = saved;
    }
  });
});

describe("the host's pip settings", () => {
  it("reach set-up with the folder they name shown, and a URL with credentials is left out and said so", async () => {
    const { dir } = caFolder();
    // As a wheel folder for every user of the host is (the sandbox's user is not the service's).
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "wheel-list.txt"), "a wheel folder's file\n");
    const saved = { links: process.env.PIP_FIND_LINKS, index: process.env.PIP_INDEX_URL };
    process.env.PIP_FIND_LINKS = dir;
    process.env.PIP_INDEX_URL = "https://ci:s3cret@artifacts.example/simple";
    try {
      const runner = createSandboxRunner({ mode: "bwrap" });
      expect((await runner.describe()).detail).toContain("pip's index-url left out (credentials)");
      const repo = makeNodeRepo();
      made.push(repo.dir);
      const run = await runner.run({
        command: `echo "links=$PIP_FIND_LINKS index=\${PIP_INDEX_URL:-none}"; cat "$PIP_FIND_LINKS/wheel-list.txt"`,
        cwd: repo.dir,
        timeoutMs: 30_000,
        network: true,
      });
      expect(run.output).toContain(`links=${dir} index=none`);
      expect(run.output).toContain("a wheel folder's file");
      expect(run.output).not.toContain("s3cret");
    } finally {
      process.env.PIP_FIND_LINKS = saved.links ?? "";
      process.env.PIP_INDEX_URL = saved.index ?? "";
    }
  });

  it.skipIf(process.getuid?.() !== 0)(
    "name, where the sandbox is described, a folder the sandbox's user cannot read",
    async () => {
      const { dir } = caFolder();
      // mkdtemp makes it 0700: only the service's user may enter it.
      const saved = process.env.PIP_FIND_LINKS;
      process.env.PIP_FIND_LINKS = dir;
      try {
        const detail = (await createSandboxRunner({ mode: "bwrap" }).describe()).detail;
        expect(detail).toContain(`${dir} (named by the host's package settings) unreadable by the sandbox user`);
        chmodSync(dir, 0o755);
        expect((await createSandboxRunner({ mode: "bwrap" }).describe()).detail).not.toContain("unreadable");
      } finally {
        process.env.PIP_FIND_LINKS = saved ?? "";
      }
    },
  );
});
