/**
 * The one serialisation of a table message: the text the store journals, the outbox publishes and
 * `tablegw replay` compares, byte for byte. The signer (src/adapters/security/signer.ts) writes a signed
 * envelope with it too.
 */
/** a table message as published: the envelope's fields (mqtt-api.md) and the message's own */
export interface Envelope {
  v: 1;
  type: string;
  table: string;
  game: string;
  /** the table's stream epoch (mqtt-api.md v1.2) */
  epoch?: string;
  seq: number;
  ts: string;
  shoeId?: string;
  roundId?: string;
  [k: string]: unknown;
}

export function envelopeText(e: Envelope): string {
  return JSON.stringify(e);
}
