export interface ChaosOptions { quick: boolean; log: (line: string) => void }
export interface ChaosResult { section: string; figures: Record<string, number>; zeroColumns: string[]; notes?: string[] }
export interface ChaosSection { name: string; run(options: ChaosOptions): Promise<ChaosResult> }
