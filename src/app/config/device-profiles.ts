/**
 * `profile:` on a device (config.md, device-protocols.md §3): the name of a shipped profile
 * (`drivers/profiles/shipped/<name>.yaml`) or the path of a profile file. Checked when the config
 * is loaded, so a bad profile stops the gateway before it starts, with the config key and the
 * profile's own key path in the message. Every kind may have one, on a serial line or a simulator
 * (whose virtual device then writes the profile's format); a barcode scanner or dice sensor on a
 * HID transport takes a HID profile (`input: hid-keyboard` / `hid-report`), a serial line a bytes one.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadProfileFile, type DeviceProfile } from '../../../drivers/profiles/profile-schema.js';
import { DEVICE_KIND_FACTS } from '../../core/vocabulary/device-kinds.js';
import { PROJECT_ROOT } from '../../runtime/paths.js';
import type { DeviceConfig } from '../../core/vocabulary/config-schema.js';

export const SHIPPED_PROFILES_DIR = join(PROJECT_ROOT, 'drivers', 'profiles', 'shipped');

/** the talker a profile must speak to feed a device of this kind (the device-kind catalogue) */
const talkerOfKind = (kind: DeviceConfig['kind']): DeviceProfile['talker'] => DEVICE_KIND_FACTS[kind].talker;

/** the profile input a HID device of this kind delivers (device-protocols.md §2a, §2b) */
const HID_INPUT_OF_KIND: Partial<Record<DeviceConfig['kind'], DeviceProfile['input']>> = { 'barcode-scanner': 'hid-keyboard', 'dice-sensor': 'hid-report' };

/**
 * Whether the profile reads what the device's transport delivers: a serial line bytes, a HID
 * transport its reports (a barcode scanner keyboard reports, a dice sensor vendor reports). A
 * simulator writes whatever its profile reads. Returns the problem, or null.
 */
function inputMismatch(d: DeviceConfig, p: DeviceProfile): string | null {
  if (d.transport.type === 'serial' && p.input !== 'bytes') {
    return `profile "${p.name}" reads input ${p.input} (HID reports), a serial line delivers bytes: use transport type hid, or a profile with input bytes`;
  }
  if (d.transport.type === 'hid') {
    const want = HID_INPUT_OF_KIND[d.kind];
    // other kinds: any HID profile (a report layout, or typed text)
    if (want === undefined)
      return p.input === 'bytes'
        ? `profile "${p.name}" reads a serial line (input bytes), a ${d.kind} on transport hid delivers HID reports: use a profile with input hid-report or hid-keyboard`
        : null;
    if (p.input !== want)
      return `profile "${p.name}" reads input ${p.input}, a ${d.kind} on transport hid delivers ${want} reports: use a profile with input ${want} (shipped: ${want === 'hid-keyboard' ? 'wedge-scanner' : 'hid-dice-sensor'})`;
  }
  return null;
}

/** the names of the shipped profiles */
export function shippedProfiles(): string[] {
  return existsSync(SHIPPED_PROFILES_DIR)
    ? readdirSync(SHIPPED_PROFILES_DIR)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => f.slice(0, -5))
        .sort()
    : [];
}

/** a shipped profile's name, or a file path (relative to the working directory) -> the file */
export function profileFile(ref: string): string {
  if (/^[a-z0-9][a-z0-9-]*$/.test(ref)) {
    const shipped = join(SHIPPED_PROFILES_DIR, `${ref}.yaml`);
    if (existsSync(shipped)) return shipped;
  }
  return resolve(ref);
}

/** Checks every device's profile; returns the problems, and points each `profile` at its file. */
export function checkDeviceProfiles(devices: DeviceConfig[], where: (di: number) => string): string[] {
  const problems: string[] = [];
  devices.forEach((d, di) => {
    if (d.profile === undefined) return;
    const key = `${where(di)}.profile`;
    if (d.transport.type === 'simulator' && d.kind === 'dice-sensor' && d.transport.protocol === 'hid') {
      problems.push(`${key}: a simulated dice sensor speaks either its profile or HID reports (transport.protocol: hid), not both`);
      return;
    }
    const file = profileFile(d.profile);
    if (!existsSync(file)) {
      problems.push(`${key}: no shipped profile "${d.profile}" (shipped: ${shippedProfiles().join(', ')}) and no file ${file}`);
      return;
    }
    try {
      const p = loadProfileFile(file);
      const talker = talkerOfKind(d.kind);
      const inputProblem = inputMismatch(d, p);
      if (talker && p.talker !== talker) problems.push(`${key}: profile "${p.name}" speaks ${p.talker}, a ${d.kind} needs ${talker}`);
      else if (inputProblem) problems.push(`${key}: ${inputProblem}`);
      else d.profile = file;
    } catch (e) {
      problems.push(`${key}: ${(e as Error).message.split('\n').join(`\n${key}: `)}`);
    }
  });
  return problems;
}
