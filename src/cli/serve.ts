/**
 * `patchsmith serve` (`npm start`): the GitHub App. With credentials it serves webhooks and runs jobs in-process;
 * without them it serves probot's registration page (the manifest flow), which writes them to `.env`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startSetupServer } from "../adapters/probot-setup.js";
import { DataFolderBusy } from "../adapters/data-folder-lock.js";
import { startApp } from "../compose-app.js";
import { composeFixDeps } from "../compose.js";
import { modelSettings, parseEnv } from "../config/env.js";
import { needsSetup, parseAppEnv } from "../github/app-env.js";
import type { SandboxRunner } from "../ports/sandbox-runner.js";

const HELP = `usage: patchsmith serve

Runs the patchsmith GitHub App (webhooks, an in-process job queue, the fix loop).
Configuration comes from the environment (and ./.env): APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH,
WEBHOOK_SECRET, PORT, HOST, WEBHOOK_PATH, GHE_HOST, GHE_PROTOCOL, OPENAI_API_KEY, OPENAI_BASE_URL,
PATCHSMITH_MODEL, PATCHSMITH_CONCURRENCY. Without APP_ID and a private key it serves the page that
registers the app on GitHub (see docs/install-app.md).
`;

function waitForSignal(): Promise<NodeJS.Signals> {
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

function fail(message: string): number {
  process.stderr.write(`patchsmith serve: ${message}\n`);
  return 2;
}

/** One line on how repositories' commands will run, for the start-up log. */
async function describeSandbox(runner: SandboxRunner): Promise<string> {
  try {
    const mode = await runner.describe();
    return mode.warning === undefined ? `sandbox: ${mode.detail}` : `WARNING: ${mode.warning}`;
  } catch (error) {
    return `WARNING: tests cannot run: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  if (argv.length > 0) return fail(`unexpected argument '${argv[0] ?? ""}'\n\n${HELP}`);
  // The manifest flow writes the credentials to ./.env; variables already set win over the file.
  if (existsSync(".env")) process.loadEnvFile(".env");
  const vars = process.env;

  if (needsSetup(vars)) {
    const setup = await startSetupServer();
    process.stdout.write(
      `patchsmith: no app credentials yet; open http://${vars.HOST ?? "localhost"}:${setup.port} to register the app\n`,
    );
    await waitForSignal();
    await setup.close();
    return 0;
  }

  let keyFile: string | undefined;
  const keyPath = vars.PRIVATE_KEY_PATH?.trim();
  if (keyPath !== undefined && keyPath !== "" && (vars.PRIVATE_KEY ?? "").trim() === "") {
    try {
      keyFile = readFileSync(resolve(keyPath), "utf8");
    } catch (error) {
      return fail(`cannot read PRIVATE_KEY_PATH ${keyPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const appEnv = parseAppEnv(vars, keyFile);
  if (!appEnv.ok) return fail(appEnv.message);
  const env = parseEnv(vars);
  if (!env.ok) return fail(env.message);
  const model = modelSettings(env.env);
  if (!model.ok) return fail(model.message);

  // Fail closed: tests of pull requests are untrusted code; without a working sandbox they are not run at all
  // unless PATCHSMITH_TEST_SANDBOX=none says so explicitly.
  const fixDeps = composeFixDeps(env.env, model.settings, {
    defaultSandbox: "bwrap",
    cacheRoot: join(appEnv.env.dataDir, "cache"),
  });
  let app: Awaited<ReturnType<typeof startApp>>;
  try {
    app = await startApp({ env: appEnv.env, fixDeps });
  } catch (error) {
    if (error instanceof DataFolderBusy) return fail(error.message);
    throw error;
  }
  process.stdout.write(`patchsmith: listening on ${app.url}${appEnv.env.webhookPath}\n`);
  process.stdout.write(`patchsmith: ${await describeSandbox(fixDeps.runner)}\n`);
  const signal = await waitForSignal();
  process.stdout.write(`patchsmith: ${signal}, finishing running jobs\n`);
  await app.close();
  return 0;
}
