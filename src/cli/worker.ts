// Placeholder until the 'worker' subcommand lands.
export function run(_argv: string[]): Promise<number> {
  process.stderr.write("patchsmith worker: not implemented yet\n");
  return Promise.resolve(2);
}
