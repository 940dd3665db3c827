/**
 * Vitest global setup: compile src/ to dist/ and bundle the Action (action/index.js) once before any test file runs,
 * so every e2e test drives the same, current build and no two files race to rebuild it. A type error fails the run
 * here.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACTION_BUNDLE, buildAction } from "../scripts/build-action.js";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BUILT_CLI = path.join(PROJECT_ROOT, "dist", "cli.js");
export const BUILT_ACTION = path.join(PROJECT_ROOT, ACTION_BUNDLE);

export default function buildOnce(): void {
  if (process.env.PATCHSMITH_SKIP_BUILD === "1") return;
  const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    timeout: 300_000,
  });
  if (result.status !== 0) {
    throw new Error(`building dist/ failed (tsc exit ${String(result.status)}):\n${result.stdout}${result.stderr}`);
  }
  buildAction(PROJECT_ROOT);
}
