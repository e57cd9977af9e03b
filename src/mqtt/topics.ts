/** The MQTT topic map (mqtt-api.md): every topic the gateway uses, in one place. */
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
  return {
    status: `${base}/status`,
    device: (id) => `${base}/devices/${id}`,
    events: `${base}/events`,
    round: `${base}/round`,
    result: `${base}/result`,
    alerts: `${base}/alerts`,
    shoe: `${base}/shoe`,
    health: `${base}/health`,
    response: (c) => `${base}/response/${c}`,
    requests: `${base}/request/+`,
    full: (rel) => `${base}/${rel}`,
  };
}

/** `casino/bac-01/request/open-betting` -> `open-betting` */
export function requestCommandOf(topic: string): string | null {
  const i = topic.lastIndexOf('/request/');
  return i < 0 ? null : topic.slice(i + '/request/'.length) || null;
}
