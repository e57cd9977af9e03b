// Types of hwm-slots.mjs (plain JS, shared with the journal's writer thread).
export declare const HWM_SLOTS_FILE: 'seq-hwm.bin';
export declare const HWM_FAST_FILE: 'seq-hwm-fast.bin';
export declare const HWM_LEGACY_FILE: 'seq-hwm.json';
export interface HwmSlotsRead {
  text: string;
  generation: number;
  slotSize: number;
}
export declare function readHwmSlots(dir: string, file?: string): HwmSlotsRead | null;
export declare function readLegacyHwm(dir: string): string | null;
export declare class HwmSlotWriter {
  constructor(dir: string, durable: boolean, file?: string);
  write(text: string): void;
  close(): void;
}
export declare function markText(
  tables: Record<string, object>,
  fragments: Map<string, string>,
  reserved?: Record<string, object>,
  reservedFragments?: Map<string, string>,
): string;
export declare const RESERVE_AHEAD: { seq: number; other: number };
export declare class HwmMark<C extends object = object> {
  constructor(tables: Record<string, C>, reserved?: Record<string, C>);
  readonly tables: Record<string, C>;
  readonly reserved: Record<string, C>;
  set(id: string, counters: C): void;
  update(changes: Array<[string, C]>): void;
  takeRenewed(): boolean;
  text(): string;
  fastText(): string;
}
export declare class HwmFiles {
  constructor(dir: string, durable: boolean);
  write(mark: HwmMark): void;
  close(): void;
}
