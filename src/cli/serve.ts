/**
 * `patchsmith serve` (`npm start`): the GitHub App. With credentials it serves webhooks and runs jobs in-process
 * (`--workers 0` with the shared queue: it only takes webhooks, `patchsmith worker` processes run the jobs); without
 * them it serves probot's registration page (the manifest flow), which writes them to `.env`.
 */
import { DataFolderBusy } from "../adapters/data-folder-lock.js";
import { startSetupServer } from "../adapters/probot-setup.js";
import { StartupRefused, startApp } from "../compose-app.js";
import { needsSetup } from "../github/app-env.js";
import { describeSandbox, loadAppConfig, loadEnvFile, stopWithin, waitForSignal } from "./app-config.js";

const HELP = `usage: patchsmith serve [--workers N]

Runs the patchsmith GitHub App (webhooks, a durable queue, the fix loop).
  --workers N   jobs this process runs at once (default PATCHSMITH_CONCURRENCY); 0 with
                PATCHSMITH_REDIS_URL: only take webhooks, \`patchsmith worker\` processes run the jobs
Configuration comes from the environment (and ./.env): APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH,
WEBHOOK_SECRET, PORT, HOST, WEBHOOK_PATH, GHE_HOST, GHE_PROTOCOL, OPENAI_API_KEY, OPENAI_BASE_URL,
PATCHSMITH_MODEL, PATCHSMITH_CONCURRENCY, PATCHSMITH_DATA_DIR, PATCHSMITH_REDIS_URL. Without APP_ID and a
private key it serves the page that registers the app on GitHub (see docs/install-app.md).
`;

function fail(message: string): number {
  process.stderr.write(`patchsmith serve: ${message}\n`);
  return 2;
}

function parseWorkers(argv: readonly string[]): number | undefined | string {
  if (argv.length === 0) return undefined;
  if (argv.length === 2 && argv[0] === "--workers" && /^\d+$/.test(argv[1] ?? "")) return Number(argv[1]);
  return `unexpected argument '${argv.join(" ")}'\n\n${HELP}`;
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const workers = parseWorkers(argv);
  if (typeof workers === "string") return fail(workers);
  const vars = loadEnvFile();

  if (needsSetup(vars)) {
    const setup = await startSetupServer();
    process.stdout.write(
      `patchsmith: no app credentials yet; open http://${vars.HOST ?? "localhost"}:${setup.port} to register the app\n`,
    );
    await waitForSignal();
    await setup.close();
    return 0;
  }

  const config = loadAppConfig(vars);
  if (!config.ok) return fail(config.message);
  let app: Awaited<ReturnType<typeof startApp>>;
  try {
    app = await startApp({ env: config.env, fixDeps: config.fixDeps, ...(workers === undefined ? {} : { workers }) });
  } catch (error) {
    if (error instanceof DataFolderBusy || error instanceof StartupRefused) return fail(error.message);
    throw error;
  }
  // Listened for before anything says it is up: a SIGTERM right after start is still a graceful stop.
  const stopped = waitForSignal();
  process.stdout.write(`patchsmith: listening on ${app.url}${config.env.webhookPath}\n`);
  process.stdout.write(`patchsmith: ${await describeSandbox(config.fixDeps.runner)}\n`);
  const signal = await stopped;
  process.stdout.write(`patchsmith: ${signal}, finishing running jobs\n`);
  await stopWithin(() => app.close(), config.env.stopGraceMs);
  return 0;
}
