/** A real `redis-server` (the Debian package) on a free port of 127.0.0.1, with its data in a temp folder. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (its data folder stays until `cleanup`). */
  stop(): Promise<void>;
  cleanup(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "patchsmith-redis-"));
  const port = await freePort();
  // Every write on disk before it is acknowledged, as a queue that must lose nothing would run it.
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--appendonly",
      "yes",
      "--appendfsync",
      "always",
      "--save",
      "",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      reject(new Error(`redis-server exited (${String(code)}):\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      resolve();
    }),
  );
  return {
    url: `redis://127.0.0.1:${String(port)}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
