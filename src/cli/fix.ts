// Placeholder until the 'fix' subcommand lands.
export function run(_argv: string[]): Promise<number> {
  process.stderr.write("patchsmith fix: not implemented yet\n");
  return Promise.resolve(2);
}
