/**
 * The export's own thread (scheduled-export.ts): one `exportJournal` run per thread, off the
 * gateway's event loop, so a day's archive (hashing, signing, writing) never delays a card. It
 * reads the journal through its own read-only connection as the inline export does; the result
 * or the error goes back as one message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { exportJournal, type ExportOptions } from './journal-export.js';

export type ExportWorkerReply =
  | { ok: true; result: ReturnType<typeof exportJournal> }
  | { ok: false; name: string; message: string; code?: string; file?: string };

const { options } = workerData as { options: Omit<ExportOptions, 'fs'> };
let reply: ExportWorkerReply;
try {
  reply = { ok: true, result: exportJournal(options) };
} catch (e) {
  const err = e as Error & { code?: string; file?: string };
  reply = { ok: false, name: err.name, message: err.message, ...(err.code ? { code: err.code } : {}), ...(err.file ? { file: err.file } : {}) };
}
parentPort?.postMessage(reply);
