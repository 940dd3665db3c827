/**
 * What `serve` and `worker` both read at start: the App's environment (and ./.env, which the manifest flow writes;
 * variables already set win), the model settings and the fix loop's dependencies, sandboxed by default.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FixDeps } from "../agent/deps.js";
import { composeFixDeps } from "../compose.js";
import { modelSettings, parseEnv } from "../config/env.js";
import { parseAppEnv, type AppEnv } from "../github/app-env.js";
import type { SandboxRunner } from "../ports/sandbox-runner.js";

export type AppConfig =
  | { readonly ok: true; readonly env: AppEnv; readonly fixDeps: FixDeps }
  | { readonly ok: false; readonly message: string };

export function loadEnvFile(): NodeJS.ProcessEnv {
  if (existsSync(".env")) process.loadEnvFile(".env");
  return process.env;
}

export function loadAppConfig(vars: NodeJS.ProcessEnv): AppConfig {
  let keyFile: string | undefined;
  const keyPath = vars.PRIVATE_KEY_PATH?.trim();
  if (keyPath !== undefined && keyPath !== "" && (vars.PRIVATE_KEY ?? "").trim() === "") {
    try {
      keyFile = readFileSync(resolve(keyPath), "utf8");
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { ok: false, message: `cannot read PRIVATE_KEY_PATH ${keyPath}: ${why}` };
    }
  }
  const appEnv = parseAppEnv(vars, keyFile);
  if (!appEnv.ok) return appEnv;
  const env = parseEnv(vars);
  if (!env.ok) return env;
  const model = modelSettings(env.env, process.env, (path) => readFileSync(path, "utf8"));
  if (!model.ok) return model;
  // Fail closed: tests of pull requests are untrusted code; without a working sandbox they are not run at all
  // unless PATCHSMITH_TEST_SANDBOX=none says so explicitly.
  const fixDeps = composeFixDeps(env.env, model.settings, {
    defaultSandbox: "bwrap",
    cacheRoot: join(appEnv.env.dataDir, "cache"),
  });
  return { ok: true, env: appEnv.env, fixDeps };
}

/** One line on how repositories' commands will run, for the start-up log. */
export async function describeSandbox(runner: SandboxRunner): Promise<string> {
  try {
    const mode = await runner.describe();
    return mode.warning === undefined ? `sandbox: ${mode.detail}` : `WARNING: ${mode.warning}`;
  } catch (error) {
    return `WARNING: tests cannot run: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/**
 * Stops gracefully: no new job starts and running ones may finish, for at most `graceMs` (PATCHSMITH_STOP_GRACE_SECONDS;
 * undefined: as long as they take). After it the process exits anyway: its running jobs are not lost but handed back
 * (on Redis another worker takes them over once their lock lapses; the embedded store runs them at the next start).
 */
export async function stopWithin(close: () => Promise<void>, graceMs: number | undefined): Promise<void> {
  if (graceMs === undefined) {
    await close();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"over">((resolve) => {
    timer = setTimeout(() => {
      resolve("over");
    }, graceMs);
  });
  const result = await Promise.race([close().then(() => "closed" as const), graceOver]);
  clearTimeout(timer);
  if (result === "over") {
    process.stdout.write("patchsmith: grace period over; running jobs are handed back\n");
    // Jobs still running hold the event loop: leave without them (they are durable and run again elsewhere).
    process.exit(0);
  }
}
