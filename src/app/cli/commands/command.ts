/** What each subcommand module of `tablegw` exports as `command`. */
export interface CliCommand {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}

/** `parse()` (a `parseArgs` call), or null after printing its error and `help` as `<name>: <error>` */
export function parsedOrNull<T>(name: string, help: string, parse: () => T): T | null {
  try {
    return parse();
  } catch (e) {
    console.error(`${name}: ${(e as Error).message}\n\n${help}`);
    return null;
  }
}
