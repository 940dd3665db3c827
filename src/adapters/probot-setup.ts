/**
 * First run without credentials: probot's own setup server, which serves the "Register GitHub App" page built from
 * `app.yml` (the manifest flow) and writes APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to `.env` once GitHub hands them
 * back. Restart `patchsmith serve` afterwards. Outside production probot also tries to open a smee.io channel for
 * local development; set NO_SMEE_SETUP=true (or WEBHOOK_PROXY_URL) to skip that.
 */
import { run } from "probot";

export interface SetupServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startSetupServer(): Promise<SetupServer> {
  // probot reads HOST, PORT, GHE_HOST, GHE_PROTOCOL and GH_ORG itself; without APP_ID it enters setup mode.
  const server = await run(() => undefined);
  return { port: server.port, close: () => server.stop() };
}
