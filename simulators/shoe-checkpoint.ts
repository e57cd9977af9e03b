/**
 * What a virtual dealer keeps of its shoe across a gateway restart, the way a real shoe keeps its
 * physical cards: the seed its shoes are shuffled from and which of its shoes is in the table.
 * With the table's own state (the `shoe` it restored from its journal: how many cards it counted,
 * whether the cut card came out) that names the exact next card, so the restarted dealer deals on
 * from there instead of loading a new shoe (docs/DEVICES.md "Simulated devices across a gateway
 * restart").
 *
 * One small JSON file per simulated shoe under the gateway's data dir
 * (`<dataDir>/simulators/<table>/<device>.json`), written when a shoe is loaded.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';

const checkpointSchema = z.object({
  /** the seed of the dealer's shoes (as a string: a configured number seed is kept as its text) */
  seed: z.string(),
  /** the dealer's shoe (0 = the first it dealt from this seed) */
  shoeNo: z.number().int().min(0),
  /** the table's shoe before this one was loaded (null: none): still that shoe = the LOADED never reached the table */
  shoeBefore: z.union([z.string(), z.null()]),
});

export type ShoeCheckpoint = z.infer<typeof checkpointSchema>;

export interface ShoeCheckpointStore {
  load(): ShoeCheckpoint | null;
  save(c: ShoeCheckpoint): void;
}

/** the checkpoint file of one simulated shoe; an unreadable or invalid file is no checkpoint (a new shoe is loaded) */
export function shoeCheckpointStore(dir: string, deviceId: string): ShoeCheckpointStore {
  const file = join(dir, `${deviceId}.json`);
  return {
    load() {
      try {
        const r = checkpointSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        return r.success ? r.data : null;
      } catch {
        return null;
      }
    },
    save(c) {
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, JSON.stringify(c));
      renameSync(tmp, file);
    },
  };
}
