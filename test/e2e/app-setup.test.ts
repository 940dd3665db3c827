/**
 * First run: `node dist/cli.js serve` without credentials serves probot's registration page, whose manifest comes
 * from app.yml (private, the least permissions, the two comment events).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let dir: string;
let app: ChildProcess;
let port = 0;
let output = "";

beforeAll(async () => {
  spawnSync("npm", ["run", "build"], { cwd: project, encoding: "utf8", timeout: 240_000 });
  expect(existsSync(path.join(project, "dist/cli.js"))).toBe(true);
  dir = mkdtempSync(path.join(tmpdir(), "patchsmith-e2e-setup-"));
  for (const file of ["app.yml", "package.json"]) copyFileSync(path.join(project, file), path.join(dir, file));
  app = spawn(process.execPath, [path.join(project, "dist/cli.js"), "serve"], {
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
