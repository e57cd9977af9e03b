#!/usr/bin/env node
// The `tablegw` command (package.json "bin"). It runs the build in dist/ when there is one
// (`npm run build`; what an installed gateway runs), else the TypeScript sources through tsx
// (a fresh clone, development). docs/INSTALL.md, "Build and package".
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../dist/src/app/cli/main.js', import.meta.url));
if (existsSync(built) && process.env.TABLEGW_FROM_SOURCE !== '1') {
  await import(pathToFileURL(built).href);
} else {
  try {
    (await import('tsx/esm/api')).register();
  } catch {
    console.error('tablegw: no build in dist/ (run `npm run build`) and no tsx to run the sources (`npm install`)');
    process.exit(1);
  }
  await import(new URL('../src/app/cli/main.ts', import.meta.url).href);
}
