#!/usr/bin/env node
/** patchsmith's command line: dispatches to one module per subcommand, loaded lazily so `apply` starts fast. */
import { USAGE } from "./cli/usage.js";

const subcommands: Record<string, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  apply: () => import("./cli/apply.js"),
  fix: () => import("./cli/fix.js"),
  serve: () => import("./cli/serve.js"),
  worker: () => import("./cli/worker.js"),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    const { readFile } = await import("node:fs/promises");
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const load = subcommands[name];
  if (!load) {
    process.stderr.write(`patchsmith: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  return (await load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Exit 2 is kept for usage errors (each subcommand reports its own); anything thrown here is a bug or an
    // environment failure, so it exits 1 like any other failure, with the stack for a bug report.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`patchsmith: internal error: ${detail}\n`);
    process.exitCode = 1;
  },
);
