/**
 * The MQTT topic map (mqtt-api.md): every topic the gateway publishes on, with whether it is
 * retained, and the one place that builds a topic, table-relative (`devices/shoe-1`) or full
 * (`casino/bac-01/devices/shoe-1`). Every message is published at QoS 1. The payload schemas of the
 * same topics are in `messages.ts` (`PUBLISHED_TOPICS`, which takes its patterns from here).
 */

/** by message `type`: the table-relative topic pattern and whether the broker keeps the last one */
export const TOPIC_PATTERNS = {
  status: { topic: 'status', retain: true },
  device: { topic: 'devices/{deviceId}', retain: true },
  event: { topic: 'events', retain: false },
  round: { topic: 'round', retain: true },
  result: { topic: 'result', retain: true },
  alert: { topic: 'alerts', retain: false },
  shoe: { topic: 'shoe', retain: true },
  health: { topic: 'health', retain: true },
  response: { topic: 'response/{command}', retain: false },
} as const;

/** a message `type` the gateway publishes (the envelope's `type`) */
export type MessageType = keyof typeof TOPIC_PATTERNS;
/** the types whose topic has a placeholder: the device id, the request command */
export type ParameterisedMessageType = 'device' | 'response';

/** every message is published at QoS 1 (mqtt-api.md) */
export const PUBLISH_QOS = 1 as const;

/**
 * The table-relative topic of a message of `type`; `parameter` fills the placeholder of `device`
 * (the device id) and `response` (the command).
 */
export function relativeTopic(type: Exclude<MessageType, ParameterisedMessageType>): string;
export function relativeTopic(type: ParameterisedMessageType, parameter: string): string;
export function relativeTopic(type: MessageType, parameter?: string): string {
  const pattern: string = TOPIC_PATTERNS[type].topic;
  const placeholder = pattern.indexOf('{');
  return placeholder < 0 ? pattern : pattern.slice(0, placeholder) + (parameter ?? '');
}

export function isRetained(type: MessageType): boolean {
  return TOPIC_PATTERNS[type].retain;
}

/** A table's full topics. */
export interface TopicMap {
  status: string;
  device(deviceId: string): string;
  events: string;
  round: string;
  result: string;
  alerts: string;
  shoe: string;
  health: string;
  response(command: string): string;
  /** subscription filter for engine requests */
  requests: string;
  /** the table-relative topic of a published message -> its full topic */
  full(relative: string): string;
}

export function topicsFor(prefix: string, tableId: string): TopicMap {
  const base = `${prefix}/${tableId}`;
  const full = (relative: string) => `${base}/${relative}`;
  return {
    status: full(relativeTopic('status')),
    device: (id) => full(relativeTopic('device', id)),
    events: full(relativeTopic('event')),
    round: full(relativeTopic('round')),
    result: full(relativeTopic('result')),
    alerts: full(relativeTopic('alert')),
    shoe: full(relativeTopic('shoe')),
    health: full(relativeTopic('health')),
    response: (c) => full(relativeTopic('response', c)),
    requests: full('request/+'),
    full,
  };
}

/** `casino/bac-01/request/open-betting` -> `open-betting` */
export function requestCommandOf(topic: string): string | null {
  const i = topic.lastIndexOf('/request/');
  return i < 0 ? null : topic.slice(i + '/request/'.length) || null;
}

/** the largest topic name MQTT allows, in UTF-8 bytes */
const MAX_TOPIC_BYTES = 65_535;

/**
 * A topic a message may be published on (MQTT 3.1.1 / 5, section 4.7): not empty, no wildcard
 * (`+`, `#`), no U+0000, at most 65,535 bytes; and, by the gateway's rule, no empty level
 * (`a//b`, a leading or trailing `/`), which brokers accept but no table topic ever has.
 */
export function topicNameProblem(topic: string): string | null {
  if (topic.length === 0) return 'it is empty';
  if (topic.includes('+') || topic.includes('#')) return 'it contains a wildcard (+ or #)';
  if (topic.includes('\u0000')) return 'it contains U+0000';
  if (topic.split('/').some((level) => level === '')) return 'it has an empty level';
  if (utf8Length(topic) > MAX_TOPIC_BYTES) return 'it is longer than 65,535 bytes';
  return null;
}

/** the length of `text` in UTF-8 bytes (a lone surrogate counts as U+FFFD, 3 bytes, as an encoder writes it) */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
