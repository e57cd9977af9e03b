/**
 * The interface every section of the attack suite (`npm run chaos`, dev/chaos/run.ts) implements.
 * A section is a default export of `dev/chaos/sections/<name>.ts`.
 */
export interface ChaosOptions {
  quick: boolean;
  log: (line: string) => void;
}
export interface ChaosResult {
  section: string;
  figures: Record<string, number>;
  zeroColumns: string[];
  notes?: string[];
}
export interface ChaosSection {
  name: string;
  run(options: ChaosOptions): Promise<ChaosResult>;
}
