/**
 * The interface every section of the attack suite (`npm run chaos`, test/chaos/run.ts) implements.
 * A section is a default export of `test/chaos/sections/<name>.ts`.
 */
export interface ChaosOptions { quick: boolean; log: (line: string) => void }
export interface ChaosResult { section: string; figures: Record<string, number>; zeroColumns: string[]; notes?: string[] }
export interface ChaosSection { name: string; run(options: ChaosOptions): Promise<ChaosResult> }
