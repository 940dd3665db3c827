// Placeholder until the 'apply' subcommand lands.
export function run(_argv: string[]): Promise<number> {
  process.stderr.write("patchsmith apply: not implemented yet\n");
  return Promise.resolve(2);
}
