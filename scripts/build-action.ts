/**
 * Bundles the GitHub Action (src/action/main.ts) into action/index.js, one file with every dependency in it, so the
 * runner starts it without an install step. The licence of every package bundled goes beside it
 * (action/licenses.txt), as their licences ask of a copy. Run: npx tsx scripts/build-action.ts (the tests build it too, test/global-build.ts).
 */
import { buildSync } from "esbuild";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ACTION_BUNDLE = path.join("action", "index.js");

/** The packages a bundle holds, from esbuild's list of inputs: `node_modules/<name>/` or `node_modules/@s/<name>/`. */
function bundledPackages(inputs: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1] !== undefined) dirs.add(match[1]);
  }
  return [...dirs].sort();
}

function licenseText(root: string, dir: string): string {
  const manifest = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as {
    name: string;
    version: string;
    license?: string;
  };
  const file = readdirSync(path.join(root, dir)).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
  const text =
    file === undefined ? "(no licence file in the package)" : readFileSync(path.join(root, dir, file), "utf8");
  return `${manifest.name}@${manifest.version} (${manifest.license ?? "see below"})\n\n${text.trim()}\n`;
}

export function buildAction(root: string): void {
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: ["src/action/main.ts"],
    outfile: ACTION_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    // Node 20.18 is the oldest runtime the code supports; the runner's node24 runs it as it is.
    target: "node20.18",
    minify: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    // CommonJS packages inside an ESM bundle still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __patchsmithRequire } from 'node:module'; const require = __patchsmithRequire(import.meta.url);",
    },
  });
  const packages = bundledPackages(Object.keys(result.metafile.inputs)).filter((dir) =>
    existsSync(path.join(root, dir, "package.json")),
  );
  const notice = packages.map((dir) => licenseText(root, dir)).join(`\n${"-".repeat(78)}\n\n`);
  writeFileSync(path.join(root, "action", "licenses.txt"), notice);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAction(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
}
