/**
 * A Python package index on 127.0.0.1 in the "simple" layout pip reads (PEP 503): `/simple/<name>/` lists the
 * wheels, `/files/<wheel>` serves them. Wheels are made at run time by the real Python's zipfile from files the
 * test gives, so nothing third-party is stored in the project.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface FakeWheel {
  readonly name: string;
  readonly version: string;
  /** Module files, relative to site-packages. */
  readonly files: Readonly<Record<string, string>>;
}

export interface FakeIndex {
  /** The index URL for PIP_INDEX_URL. */
  readonly url: string;
  /** `host:port`, for the egress allow-list. */
  readonly host: string;
  readonly requests: readonly string[];
  close(): Promise<void>;
}

const BUILD_WHEEL = `
import json, sys, zipfile, base64, hashlib
spec = json.load(open(sys.argv[1]))
name, version = spec["name"], spec["version"]
dist = f"{name}-{version}.dist-info"
entries = dict(spec["files"])
entries[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n"
entries[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\\nGenerator: patchsmith-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
record = []
for path, text in entries.items():
    data = text.encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append(f"{path},sha256={digest},{len(data)}")
record.append(f"{dist}/RECORD,,")
entries[f"{dist}/RECORD"] = "\\n".join(record) + "\\n"
with zipfile.ZipFile(sys.argv[2], "w") as z:
    for path, text in entries.items():
        z.writestr(path, text)
`;

const normalize = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, "-");

/** Writes the wheel into `dir` (a find-links folder), returning its file name. */
export async function writeWheel(wheel: FakeWheel, dir: string): Promise<string> {
  const file = `${wheel.name.replace(/-/g, "_")}-${wheel.version}-py3-none-any.whl`;
  const spec = join(dir, `${file}.json`);
  writeFileSync(spec, JSON.stringify(wheel));
  try {
    await run("python3", ["-c", BUILD_WHEEL, spec, join(dir, file)]);
  } finally {
    rmSync(spec, { force: true });
  }
  return file;
}

async function buildWheel(wheel: FakeWheel): Promise<{ file: string; data: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-wheel-"));
  try {
    const file = await writeWheel(wheel, dir);
    return { file, data: readFileSync(join(dir, file)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFakeIndex(wheels: readonly FakeWheel[]): Promise<FakeIndex> {
  const built = await Promise.all(wheels.map(async (w) => ({ wheel: w, ...(await buildWheel(w)) })));
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://index").pathname);
    requests.push(`${request.method ?? "GET"} ${path}`);
    const listing = /^\/simple\/([^/]+)\/?$/.exec(path);
    if (listing !== null) {
      const matches = built.filter((b) => normalize(b.wheel.name) === normalize(listing[1]!));
      if (matches.length === 0) {
        response.writeHead(404).end();
        return;
      }
      const links = matches.map((b) => {
        const sha = createHash("sha256").update(b.data).digest("hex");
        return `<a href="/files/${b.file}#sha256=${sha}">${b.file}</a>`;
      });
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!DOCTYPE html><html><body>${links.join("\n")}</body></html>`);
      return;
    }
    const file = built.find((b) => path === `/files/${b.file}`);
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(file.data);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${String(port)}/simple`,
    host: `127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A tiny assertion helper package the fixture's tests import. */
export const TINYCHECK: FakeWheel = {
  name: "tinycheck",
  version: "1.0.0",
  files: {
    "tinycheck/__init__.py":
      "def check_equal(actual, expected):\n    assert actual == expected, f'expected {expected!r}, got {actual!r}'\n",
  },
};

/**
 * Stands in for black 24.2.0, as a project's pre-commit hook pins it: its `black` command leaves a mark in the
 * virtual environment it was installed in, then runs the machine's own Black (a Debian package .ci/run installs).
 */
export const PINNED_BLACK: FakeWheel = {
  name: "black",
  version: "24.2.0",
  files: {
    "pinned_black.py": [
      "import os, shutil, sys",
      "",
      "def main():",
      "    here = os.path.dirname(os.path.abspath(sys.argv[0]))",
      "    open(os.path.join(here, '..', 'pinned-black-ran'), 'a').close()",
      "    path = os.pathsep.join(p for p in os.environ['PATH'].split(os.pathsep) if os.path.abspath(p) != here)",
      "    real = shutil.which('black', path=path)",
      "    os.execv(real, [real, *sys.argv[1:]])",
      "",
    ].join("\n"),
    "black-24.2.0.dist-info/entry_points.txt": "[console_scripts]\nblack = pinned_black:main\n",
  },
};
