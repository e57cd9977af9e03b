/**
 * The one serialisation of a table message: the text the store journals, the outbox publishes and
 * `tablegw replay` compares, byte for byte. The signer (src/adapters/security/signer.ts) writes a signed
 * envelope with it too.
 */
import type { Envelope } from '../table/types.js';

export function envelopeText(e: Envelope): string {
  return JSON.stringify(e);
}
