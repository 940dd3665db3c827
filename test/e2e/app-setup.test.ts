/**
 * First run: `node dist/cli.js serve` without credentials serves probot's registration page, whose manifest comes
 * from app.yml (private, the least permissions, the two comment events).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILT_CLI, PROJECT_ROOT } from "../global-build.js";

let dir: string;
let app: ChildProcess;
let port = 0;
let output = "";

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "patchsmith-e2e-setup-"));
  for (const file of ["app.yml", "package.json"]) copyFileSync(path.join(PROJECT_ROOT, file), path.join(dir, file));
  app = spawn(process.execPath, [BUILT_CLI, "serve"], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, PORT: "0", HOST: "127.0.0.1", NO_SMEE_SETUP: "true", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const match = /open http:\/\/127\.0\.0\.1:(\d+) to register/.exec(output);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    };
    app.stdout!.on("data", onData);
    app.stderr!.on("data", onData);
    app.once("exit", (code) => {
      reject(new Error(`serve exited (${code ?? "signal"}):\n${output}`));
    });
  });
}, 300_000);

afterAll(async () => {
  if (app.exitCode === null) {
    const exited = new Promise((resolve) => app.once("exit", resolve));
    app.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

it("serves the page that registers the app from app.yml", async () => {
  const response = await fetch(`http://127.0.0.1:${port}/probot`);
  expect(response.status).toBe(200);
  const html = (await response.text()).replace(/&quot;/g, '"').replace(/&#34;/g, '"');
  expect(html).toContain("https://github.com/settings/apps/new");
  expect(html).toContain('"public":false');
  expect(html).toContain('"default_events":["issue_comment","pull_request_review_comment"]');
  expect(html).toContain('"contents":"write"');
  expect(html).toContain(`"redirect_url":"http://127.0.0.1:${port}/probot/setup"`);
});
