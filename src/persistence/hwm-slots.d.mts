// Types of hwm-slots.mjs (plain JS, shared with the journal's writer thread).
export declare const HWM_SLOTS_FILE: 'seq-hwm.bin';
export declare const HWM_LEGACY_FILE: 'seq-hwm.json';
export interface HwmSlotsRead { text: string; generation: number; slotSize: number }
export declare function readHwmSlots(dir: string): HwmSlotsRead | null;
export declare function readLegacyHwm(dir: string): string | null;
export declare class HwmSlotWriter {
  constructor(dir: string, durable: boolean);
  write(text: string): void;
  close(): void;
}
export declare function markText(tables: Record<string, object>, fragments: Map<string, string>): string;
export declare class HwmMark<C extends object = object> {
  constructor(tables: Record<string, C>);
  readonly tables: Record<string, C>;
  set(id: string, counters: C): void;
  update(changes: Array<[string, C]>): void;
  text(): string;
}
