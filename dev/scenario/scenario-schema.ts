/**
 * The scenario format (docs/SCENARIOS.md): a table config plus a timed list of device frames,
 * engine requests and expectations on what the gateway publishes. Validated with zod.
 */
import * as z from 'zod';

const deviceId = z.string().min(1);
const ms = z.number().int().min(0).max(600_000);

/** a partial JSON object the published payload must contain (arrays compared element by element) */
const match = z.record(z.string(), z.unknown()).default({});

export const scenarioStepSchema = z.union([
  z.object({ note: z.string() }).strict(),
  /** frames as the device sends them, without `$`, SEQ and checksum: `"CARD,AS"`, `"STATE,LOADED"` (a device with a `profile` gets them in its profile's format) */
  z.object({ frames: z.object({ device: deviceId, send: z.array(z.string()).min(1) }).strict() }).strict(),
  /** shorthand for `CARD,<card>` frames */
  z.object({ cards: z.object({ device: deviceId, cards: z.array(z.string().regex(/^[A2-9TJQK][SHDC]$/)).min(1) }).strict() }).strict(),
  /** bytes written as they are (use \r\n; may be garbage, a bad checksum, an over-long line) */
  z.object({ raw: z.object({ device: deviceId, text: z.string() }).strict() }).strict(),
  /** line noise in the device's format (bytes that resynchronisation discards, or a frame of its own where the format has no start mark) */
  z.object({ noise: deviceId }).strict(),
  /** the frame (a body like `frames` sends) with its check value damaged, in the device's format; it takes no SEQ */
  z.object({ badChecksum: z.object({ device: deviceId, frame: z.string().min(1) }).strict() }).strict(),
  /** the first half of the frame only (the cable glitched), in the device's format; it takes no SEQ */
  z.object({ truncated: z.object({ device: deviceId, frame: z.string().min(1) }).strict() }).strict(),
  /** the device's next SEQ jumps ahead by `count` (frames lost on the line) */
  z.object({ skipSeq: z.object({ device: deviceId, count: z.number().int().min(1).max(65535) }).strict() }).strict(),
  /** the device restarts: its next SEQ is 0 */
  z.object({ restartDevice: deviceId }).strict(),
  /** an engine request: `request/<command>` with `payload` (a transaction id is added) */
  z
    .object({
      request: z
        .object({
          command: z.string().min(1),
          payload: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
          /** the response status the scenario expects (checked before the next step) */
          expectStatus: z.enum(['ok', 'error']).optional(),
          /**
           * sign the request as the pit key of this name (docs/SECURITY.md "Privileged requests"): the
           * runner makes a key pair per name used and lists it in the table's `requests.privileged.keys`
           * for every privileged command
           */
          signedBy: z
            .string()
            .regex(/^[A-Za-z0-9._:@-]{1,64}$/)
            .optional(),
        })
        .strict(),
    })
    .strict(),
  z.object({ wait: ms }).strict(),
  /** the device's cable is pulled (its pty disappears) / plugged back in */
  z.object({ unplug: deviceId }).strict(),
  z.object({ replug: deviceId }).strict(),
  /** a message on `casino/<table>/<topic>` matching `match`, not matched by an earlier expect */
  z
    .object({
      expect: z.object({ topic: z.string().min(1), match, within: ms.default(5000), count: z.number().int().min(1).default(1) }).strict(),
    })
    .strict(),
  /** no (unmatched) message on the topic matches, now or within `for` ms */
  z.object({ expectNone: z.object({ topic: z.string().min(1), match, for: ms.default(300) }).strict() }).strict(),
  /** the device received a gateway command line containing `text` (e.g. `RESCAN`, `LOCK`) */
  z.object({ expectCommand: z.object({ device: deviceId, text: z.string().min(1), within: ms.default(3000) }).strict() }).strict(),
  /** the device has received exactly `count` gateway command lines containing `text` so far (e.g. `,LOCK*`: one LOCK, no second) */
  z.object({ commandCount: z.object({ device: deviceId, text: z.string().min(1), count: z.number().int().min(0) }).strict() }).strict(),
]);

export const scenarioSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    /** the rule sheet clause or spec section the scenario checks */
    rule: z.string().default(''),
    /** files written to the scenario's temp dir first (e.g. an RFID deck registry); `{{dir}}` in the table config is that dir */
    files: z.record(z.string().regex(/^[A-Za-z0-9._-]+$/), z.string()).default({}),
    /** a table entry of the config file; each device's `transport` is set by the runner (a serial pty) */
    table: z.record(z.string(), z.unknown()),
    steps: z.array(scenarioStepSchema).min(1),
  })
  .strict();

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioStep = z.infer<typeof scenarioStepSchema>;
