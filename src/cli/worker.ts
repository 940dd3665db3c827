/**
 * `patchsmith worker`: a separate queue worker, for scaling out over a shared queue. This build's queue is an
 * embedded store on local disk that `patchsmith serve` works on itself; a standalone worker needs a shared queue.
 */
export function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write("usage: patchsmith worker\n\nProcesses jobs from a shared queue (PATCHSMITH_REDIS_URL).\n");
    return Promise.resolve(0);
  }
  process.stderr.write(
    "patchsmith worker: this build's queue is an embedded store that `patchsmith serve` works on itself;\n" +
      "a separate worker needs a shared queue (PATCHSMITH_REDIS_URL), which is not available yet.\n",
  );
  return Promise.resolve(2);
}
