/**
 * A package registry on 127.0.0.1 that npm, pnpm and Yarn install from: packuments at `/<name>` and tarballs at
 * `/-/<name>-<version>.tgz`, made by the real `tar` from files the test gives. It records every request, so a test
 * can tell a cold install (tarballs fetched) from a warm one.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { writeFiles } from "./git-repos.js";

export interface FakePackage {
  readonly name: string;
  readonly version: string;
  /** Files of the package besides package.json, relative to its root. */
  readonly files: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly bin?: Readonly<Record<string, string>>;
  readonly scripts?: Readonly<Record<string, string>>;
}

export interface FakeRegistry {
  /** With a trailing slash, as npm's `registry` setting wants it. */
  readonly url: string;
  readonly port: number;
  /** `host:port`, for the egress allow-list. */
  readonly host: string;
  readonly requests: readonly string[];
  close(): Promise<void>;
}

interface Built {
  readonly meta: FakePackage;
  readonly tarball: Buffer;
}

function pack(pkg: FakePackage): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-pkg-"));
  try {
    const manifest = {
      name: pkg.name,
      version: pkg.version,
      ...(pkg.dependencies === undefined ? {} : { dependencies: pkg.dependencies }),
      ...(pkg.peerDependencies === undefined ? {} : { peerDependencies: pkg.peerDependencies }),
      ...(pkg.bin === undefined ? {} : { bin: pkg.bin }),
      ...(pkg.scripts === undefined ? {} : { scripts: pkg.scripts }),
    };
    writeFiles(join(dir, "package"), { ...pkg.files, "package.json": `${JSON.stringify(manifest, null, 2)}\n` });
    const out = join(dir, "package.tgz");
    execFileSync("tar", ["-czf", out, "-C", dir, "--owner=0", "--group=0", "--mode=a+rX", "package"]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tarballName = (name: string, version: string): string => `${name.replace(/^@[^/]+\//, "")}-${version}.tgz`;

export interface RegistryOptions {
  /** Each answer waits this long first: the round trip of a registry across the internet, for a benchmark. */
  readonly latencyMs?: number;
}

export async function startFakeRegistry(
  packages: readonly FakePackage[],
  options: RegistryOptions = {},
): Promise<FakeRegistry> {
  const built: Built[] = packages.map((meta) => ({ meta, tarball: pack(meta) }));
  const requests: string[] = [];
  let base = "";
  const packument = (name: string) => {
    const versions = built.filter((b) => b.meta.name === name);
    if (versions.length === 0) return undefined;
    const entries = versions.map(({ meta, tarball }): [string, unknown] => [
      meta.version,
      {
        name,
        version: meta.version,
        ...(meta.dependencies === undefined ? {} : { dependencies: meta.dependencies }),
        ...(meta.peerDependencies === undefined ? {} : { peerDependencies: meta.peerDependencies }),
        ...(meta.bin === undefined ? {} : { bin: meta.bin }),
        ...(meta.scripts === undefined ? {} : { scripts: meta.scripts, hasInstallScript: true }),
        dist: {
          tarball: `${base}${name}/-/${tarballName(name, meta.version)}`,
          integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
          shasum: createHash("sha1").update(tarball).digest("hex"),
        },
      },
    ]);
    return { name, "dist-tags": { latest: versions.at(-1)!.meta.version }, versions: Object.fromEntries(entries) };
  };
  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://registry").pathname);
    requests.push(`${request.method ?? "GET"} ${path}`);
    const tarball = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    if (tarball !== null) {
      const found = built.find(
        (b) => b.meta.name === tarball[1] && tarballName(b.meta.name, b.meta.version) === tarball[2],
      );
      if (found === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(found.tarball);
      return;
    }
    // One version's manifest (`/<name>/<version>`), as corepack asks for it.
    const versioned = /^\/((?:@[^/]+\/)?[^@/][^/]*)\/(\d[^/]*)$/.exec(path);
    if (versioned !== null) {
      const manifest = (packument(versioned[1]!)?.versions as Record<string, unknown> | undefined)?.[versioned[2]!];
      if (manifest === undefined) response.writeHead(404).end();
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(manifest));
      return;
    }
    const document = packument(path.slice(1));
    if (document === undefined) {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(document));
  };
  const latency = options.latencyMs ?? 0;
  const server: Server = createServer((request, response) => {
    if (latency === 0) answer(request, response);
    else
      setTimeout(() => {
        answer(request, response);
      }, latency);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${String(port)}/`;
  return {
    url: base,
    port,
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

/** A test runner package in the spirit of tape: `tape-lite FILES...` runs each file and prints TAP. */
export const TAPE_LITE: FakePackage = {
  name: "tape-lite",
  version: "1.0.0",
  bin: { "tape-lite": "bin.js" },
  files: {
    "bin.js": [
      "#!/usr/bin/env node",
      '"use strict";',
      'const path = require("node:path");',
      'const { pathToFileURL } = require("node:url");',
      "globalThis.__tapeLite = { tests: [] };",
      "(async () => {",
      "  for (const file of process.argv.slice(2)) await import(pathToFileURL(path.resolve(file)).href);",
      '  console.log("TAP version 13");',
      "  let n = 0;",
      "  let failed = 0;",
      "  for (const { name, fn } of globalThis.__tapeLite.tests) {",
      "    n++;",
      "    try {",
      "      await fn();",
      "      console.log(`ok ${n} ${name}`);",
      "    } catch (error) {",
      "      failed++;",
      "      console.log(`not ok ${n} ${name}`);",
      '      console.log("  ---");',
      "      console.log(`    operator: ${error.operator ?? 'fail'}`);",
      "      console.log(`    expected: ${JSON.stringify(error.expected)}`);",
      "      console.log(`    actual:   ${JSON.stringify(error.actual)}`);",
      '      console.log("  ...");',
      "    }",
      "  }",
      "  console.log(`\\n1..${n}\\n# tests ${n}\\n# pass  ${n - failed}\\n# fail  ${failed}`);",
      "  process.exitCode = failed > 0 ? 1 : 0;",
      "})();",
      "",
    ].join("\n"),
    "index.js": [
      '"use strict";',
      "module.exports = function test(name, fn) {",
      "  globalThis.__tapeLite.tests.push({ name, fn });",
      "};",
      "",
    ].join("\n"),
  },
};

/** A tape-lite plugin that declares a peer tape-lite 2 no project here has: npm 7+ refuses it next to tape-lite 1. */
export const TAPE_LITE_DOTS: FakePackage = {
  name: "tape-lite-dots",
  version: "1.0.0",
  peerDependencies: { "tape-lite": "^2.0.0" },
  files: { "index.js": "module.exports = () => {};\n" },
};

/**
 * A native addon as a project's dev tool pulls one in: its install script builds it, and fails where there is no
 * compiler (as node-gyp does on a machine without one). The tests never load it.
 */
export const NATIVE_ADDON: FakePackage = {
  name: "zopfli-lite",
  version: "1.0.0",
  scripts: { install: "node build.js" },
  files: {
    "build.js": 'console.error("gyp ERR! stack Error: not found: make"); process.exit(1);\n',
    "index.js": "module.exports = require('./build/Release/zopfli.node');\n",
  },
};

/**
 * A stand-in for pnpm as corepack fetches it (`bin/pnpm.cjs`): `install` records that it ran in node_modules, and
 * `run NAME` / `test` run the package's scripts, which is all a test suite asks of it.
 */
export const FAKE_PNPM: FakePackage = {
  name: "pnpm",
  version: "9.0.0",
  bin: { pnpm: "bin/pnpm.cjs" },
  files: {
    "bin/pnpm.cjs": [
      "#!/usr/bin/env node",
      '"use strict";',
      'const { execSync } = require("node:child_process");',
      'const fs = require("node:fs");',
      "const [command, ...rest] = process.argv.slice(2);",
      'const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));',
      'if (command === "install") {',
      '  fs.mkdirSync("node_modules", { recursive: true });',
      '  fs.writeFileSync("node_modules/.fake-pnpm", `installed with ${rest.join(" ")}\\n`);',
      '  console.log("fake pnpm: installed");',
      '} else if (command === "run" || command === "test") {',
      '  const script = pkg.scripts[command === "test" ? "test" : rest[0]];',
      '  try { execSync(script, { stdio: "inherit" }); } catch (error) { process.exit(error.status ?? 1); }',
      "} else {",
      "  console.error(`fake pnpm: ${command} is not supported`);",
      "  process.exit(1);",
      "}",
      "",
    ].join("\n"),
    "bin/pnpx.cjs": "#!/usr/bin/env node\nprocess.exit(1);\n",
  },
};

/**
 * A package this project installed (a dev dependency in its node_modules), served as it is: the real tool a test
 * repository's scripts call, from the fake registry. Its own dependencies are not served.
 */
export function installedPackage(name: string): FakePackage {
  const root = join(import.meta.dirname, "../../node_modules", name);
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
    bin?: string | Record<string, string>;
  };
  const files: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === "package.json") continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(root, path)] = readFileSync(path, "utf8");
  }
  const bin = typeof manifest.bin === "string" ? { [name]: manifest.bin } : manifest.bin;
  return { name, version: manifest.version, files, ...(bin === undefined ? {} : { bin }) };
}
