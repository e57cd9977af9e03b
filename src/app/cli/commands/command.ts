/** What each subcommand module of `tablegw` exports as `command`. */
export interface CliCommand {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}
