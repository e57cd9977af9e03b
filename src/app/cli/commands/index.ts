/**
 * Subcommands of `tablegw` beyond `start` and `check-config` (which live in main.ts).
 * Each module exports `command` (`CliCommand`, ./command.ts): `run(argv)` gives the exit code.
 */
import type { CliCommand } from './command.js';

export const COMMANDS: Record<string, () => Promise<CliCommand>> = {
  tail: () => import('./tail.js').then((m) => m.command),
  simulate: () => import('./simulate.js').then((m) => m.command),
  replay: () => import('./replay.js').then((m) => m.command),
  devices: () => import('./devices.js').then((m) => m.command),
  capture: () => import('./capture.js').then((m) => m.command),
  profile: () => import('./profile.js').then((m) => m.command),
  learn: () => import('./learn.js').then((m) => m.command),
  verify: () => import('./verify.js').then((m) => m.command),
  keygen: () => import('./keygen.js').then((m) => m.command),
  'sign-request': () => import('./sign-request.js').then((m) => m.command),
  recover: () => import('./recover.js').then((m) => m.command),
  backup: () => import('./backup.js').then((m) => m.command),
  restore: () => import('./backup.js').then((m) => m.restoreCommand),
  export: () => import('./export.js').then((m) => m.command),
  'verify-export': () => import('./verify-export.js').then((m) => m.command),
};
