#!/usr/bin/env node
// The `skiff` command. Runs the esbuild bundle dist/cli.js (built by `npm install` through
// scripts/bundle.mjs) when it is at least as new as the TypeScript sources; otherwise, in a
// checkout being edited, runs frontend/cli/main.ts through tsx so changes apply at once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'cli.js');

function newestSource(dir, limit) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newestSource(p, limit));
    else if (e.name.endsWith('.ts')) t = Math.max(t, statSync(p).mtimeMs);
    if (t > limit) break;
  }
  return t;
}

function bundleIsFresh() {
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  for (const d of ['src', 'frontend', 'sot']) {
    const p = join(root, d);
    if (existsSync(p) && newestSource(p, built) > built) return false;
  }
  return true;
}

async function load() {
  if (process.env.SKIFF_FROM_SOURCE !== '1' && bundleIsFresh()) return import(pathToFileURL(bundle).href);
  let api;
  try {
    api = await import('tsx/esm/api');
  } catch {
    if (existsSync(bundle)) return import(pathToFileURL(bundle).href);
    throw new Error('skiff: dist/cli.js is missing and tsx is not installed; run `npm install`');
  }
  return api.tsImport(pathToFileURL(join(root, 'frontend', 'cli', 'main.ts')).href, import.meta.url);
}

const cli = await load();
await cli.main(process.argv);
