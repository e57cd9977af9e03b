/**
 * The RxJS edge around one table's pure machine: it merges device events, engine requests and
 * timer firings into one ordered input stream, stamps each with the clock, runs `step`, and carries
 * out the outputs (publish, device commands, timers, logs). All I/O and timing live here.
 */
import { merge, Subject, timer, type Observable, type Subscription, map } from 'rxjs';
import type { DeviceDriver, DriverEvent } from '../../drivers/device-driver.js';
import type { Logger } from '../log.js';
import type { TableLink } from '../mqtt/table-link.js';
import type { TableCounterStore } from '../persistence/table-counters.js';
import { countersOf, initialTableState, step } from '../table/table-machine.js';
import type { Envelope, TableInput, TableOutput, TableSettings, TableState } from '../table/types.js';

export interface PublishedMessage {
  topic: string;
  retain: boolean;
  payload: Envelope;
}

export class TableRuntime {
  /** every message the table publishes, after it was handed to the MQTT client */
  readonly published$: Observable<PublishedMessage>;
  /** every input the machine processed (the journal's feed) */
  readonly inputs$: Observable<TableInput>;
  private readonly publishedSubject = new Subject<PublishedMessage>();
  private readonly inputSubject = new Subject<TableInput>();
  private readonly timerInputs = new Subject<TableInput>();
  private readonly timers = new Map<string, Subscription>();
  private state: TableState;
  private sub: Subscription | null = null;

  constructor(
    readonly settings: TableSettings,
    private readonly link: TableLink,
    readonly drivers: readonly DeviceDriver[],
    private readonly counters: TableCounterStore,
    private readonly log: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.state = initialTableState(settings, counters.load());
    this.published$ = this.publishedSubject.asObservable();
    this.inputs$ = this.inputSubject.asObservable();
  }

  get snapshot(): TableState {
    return this.state;
  }

  start(): void {
    const deviceInputs = this.drivers.map((d) => d.events$.pipe(map((ev) => this.deviceInput(d.deviceId, ev))));
    const requestInputs = this.link.requests$.pipe(map((r): TableInput => ({ type: 'request', at: this.clock(), ...r })));
    this.sub = merge(...deviceInputs, requestInputs, this.timerInputs).subscribe((input) => this.apply(input));
    this.apply({ type: 'start', at: this.clock() });
    for (const d of this.drivers) d.start();
  }

  async stop(): Promise<void> {
    for (const t of this.timers.values()) t.unsubscribe();
    this.timers.clear();
    await Promise.all(this.drivers.map((d) => d.stop()));
    this.sub?.unsubscribe();
    this.publishedSubject.complete();
    this.inputSubject.complete();
  }

  private deviceInput(deviceId: string, ev: DriverEvent): TableInput {
    const at = this.clock();
    switch (ev.kind) {
      case 'frame': return { type: 'frame', at, deviceId, frame: ev.frame };
      case 'status': return { type: 'device-status', at, deviceId, state: ev.state, ...(ev.detail ? { detail: ev.detail } : {}) };
      case 'alert': return { type: 'device-alert', at, deviceId, kind: ev.alert, detail: ev.detail, ...(ev.data ? { data: ev.data } : {}) };
      case 'restart': return { type: 'device-restart', at, deviceId };
    }
  }

  /** runs one input through the machine and carries out its outputs */
  apply(input: TableInput): void {
    let result;
    try {
      result = step(this.settings, this.state, input);
    } catch (e) {
      // The machine must never throw; if it does, the input is dropped and the state kept.
      this.log.error(`table machine failed on a ${input.type} input: ${(e as Error).stack ?? e}`);
      return;
    }
    this.state = result.state;
    this.inputSubject.next(input);
    // counters first: a seq that went out must never be handed out again after a crash
    this.counters.save(countersOf(this.state));
    for (const o of result.outputs) this.carryOut(o);
  }

  private carryOut(o: TableOutput): void {
    switch (o.type) {
      case 'publish': {
        const text = JSON.stringify(o.payload);
        this.link.publish(this.link.topics.full(o.topic), text, o.retain);
        if (o.alsoTo) this.link.publish(o.alsoTo.topic, text, false, o.alsoTo.correlationData);
        this.publishedSubject.next({ topic: o.topic, retain: o.retain, payload: o.payload });
        return;
      }
      case 'device-command': {
        const d = this.drivers.find((x) => x.deviceId === o.deviceId);
        if (!d?.send(o.command)) this.log.debug(`device ${o.deviceId} does not take ${o.command}`);
        return;
      }
      case 'set-timer': {
        this.timers.get(o.name)?.unsubscribe();
        const delay = Math.max(0, o.at - this.clock());
        this.timers.set(o.name, timer(delay).subscribe(() => {
          this.timers.delete(o.name);
          this.timerInputs.next({ type: 'timer', at: this.clock(), name: o.name });
        }));
        return;
      }
      case 'cancel-timer':
        this.timers.get(o.name)?.unsubscribe();
        this.timers.delete(o.name);
        return;
      case 'log':
        this.log[o.level](o.msg, o.data);
        return;
    }
  }
}
