/**
 * Install scripts that fetch a browser or an app binary from a host of their own, outside the package registries
 * (pure). When the set-up allow-list does not admit that host the download can only fail, and with it the whole
 * install (puppeteer's postinstall exits 1), although most of a project's tests never start the browser. Each tool's
 * own switch skips the download then; a test that needs the browser fails before and after a change alike. An
 * operator who admits the host (PATCHSMITH_SETUP_HOSTS) gets the download back.
 */
import { decideEgress, type EgressRule } from "./egress-rules.js";

const DOWNLOADS: ReadonlyArray<{ readonly host: string; readonly env: Readonly<Record<string, string>> }> = [
  // Chrome for Testing; older puppeteer versions read the second name.
  { host: "storage.googleapis.com", env: { PUPPETEER_SKIP_DOWNLOAD: "1", PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: "1" } },
  { host: "download.cypress.io", env: { CYPRESS_INSTALL_BINARY: "0" } },
  { host: "cdn.playwright.dev", env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" } },
];

/** The switches that skip the downloads whose host `rules` do not admit. */
export function skippedDownloads(rules: readonly EgressRule[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const download of DOWNLOADS) {
    if (!decideEgress(rules, download.host, 443).allowed) Object.assign(env, download.env);
  }
  return env;
}
