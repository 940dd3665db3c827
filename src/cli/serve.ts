// Placeholder until the 'serve' subcommand lands.
export function run(_argv: string[]): Promise<number> {
  process.stderr.write("patchsmith serve: not implemented yet\n");
  return Promise.resolve(2);
}
