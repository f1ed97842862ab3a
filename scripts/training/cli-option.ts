/** The value after `--name` on the command line, or `fallback` when it is not given. */
export function cliOption(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
}
