/** Alert kinds (games.md) and their severities. */
export type Severity = 'info' | 'warning' | 'critical';

export const ALERT_KINDS = [
  'bad-frame',
  'frame-gap',
  'device-stale',
  'device-error',
  'unknown-tag',
  'misread',
  'rescan-overdue',
  'out-of-order-card',
  'exposed-card',
  'unnecessary-card',
  'shoe-void',
  'dropped-card',
  'foreign-card',
  'card-after-last-round',
  'card-count-mismatch',
  'shuffler-jam',
  'cocked-dice',
  'dice-no-bounce',
  'dice-noread',
  'ball-invalid',
  'round-void',
  'unexpected-rescan',
  'deck-exhausted',
  'device-disconnected',
  // a roll or a draw with no round open (betting: engine, before open-betting): no result
  'no-round-open',
  // the durable outbox passed 80% of its bound / reached it (docs/DURABILITY.md)
  'outbox-filling',
  'outbox-full',
  // a serial/HID device that is not on security.allowedDevices was not opened (docs/SECURITY.md)
  'device-not-allowed',
  // the journal was damaged and `tablegw recover --accept-loss` started the table again above its high-water mark
  'journal-loss',
  // a configured device that has not connected `missingAfterMs` after the start (docs/FAULTS.md)
  'device-missing',
  // a message that can never be delivered (invalid against the topic map, or refused by the broker)
  'message-quarantined',
  // the broker acknowledged nothing within mqtt.ackTimeoutMs while messages were in flight (docs/FAULTS.md)
  'broker-stalled',
  // the wall clock stepped by more than 1 s (against the monotonic clock), or a prune was refused for the clock (docs/DURABILITY.md)
  'clock-step',
  // a table's journal was created fresh: a new stream epoch, seq starts again (docs/ENGINES.md "Epochs")
  'new-epoch',
  // the data dir was restored from a backup: what the old PC may have published after it is named (docs/OPERATIONS.md)
  'restored-from-backup',
  // a scheduled backup failed (a full disk, ...): the journal is untouched (docs/OPERATIONS.md "Backups")
  'backup-failed',
  // the system clock has not been synchronised (NTP) for 24 h, or a scheduled journal export failed (docs/OPERATIONS.md "Audit")
  'clock-unsynchronised',
  'export-failed',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const CRITICAL: ReadonlySet<string> = new Set([
  'foreign-card',
  'shoe-void',
  'device-error',
  'shuffler-jam',
  'card-count-mismatch',
  'outbox-full',
  'journal-loss',
  'message-quarantined',
  'broker-stalled',
  'restored-from-backup',
]);
/** security alerts: always critical (docs/SECURITY.md) */
const SECURITY: ReadonlySet<string> = new Set(['device-not-allowed']);

export function severityOf(kind: AlertKind): Severity {
  if (kind === 'misread') return 'info';
  return CRITICAL.has(kind) || SECURITY.has(kind) ? 'critical' : 'warning';
}
