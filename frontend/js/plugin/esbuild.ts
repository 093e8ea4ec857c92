// esbuild plugin: runs the scope transform (transform.ts) over the user's own modules, so
// functions and classes handed to paddle.jit.to_static carry an accessor for their free
// variables. TypeScript is stripped first with esbuild's own transform (same loader), then the
// JavaScript is transformed; the TS source map is kept inline so esbuild chains it.
//
//   import { skiffScopePlugin } from 'skiff/esbuild-plugin';
//   await esbuild.build({ entryPoints: ['src/main.ts'], bundle: true, plugins: [skiffScopePlugin()] });
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Loader, Plugin } from 'esbuild';
import { transformScopes } from './transform.js';

export interface SkiffScopePluginOptions {
  /** Files to transform (default: .ts .tsx .mts .cts .js .jsx .mjs .cjs). */
  filter?: RegExp;
  /** Also transform files under node_modules (default false: libraries are not user models). */
  includeNodeModules?: boolean;
  /** tsconfig text for the TS strip (default: the nearest tsconfig.json; `extends` is not followed). */
  tsconfigRaw?: string;
}

/** esbuild's plugin type (a type-only import: at run time esbuild hands the plugin its own API as `build.esbuild`). */
export type EsbuildPlugin = Plugin;

const DEFAULT_FILTER = /\.(m|c)?(t|j)sx?$/;

function loaderFor(path: string): Loader {
  if (/\.(m|c)?tsx$/.test(path)) return 'tsx';
  if (/\.(m|c)?ts$/.test(path)) return 'ts';
  return /\.jsx$/.test(path) ? 'jsx' : 'js';
}

function nearestTsconfig(from: string): string | undefined {
  for (let d = dirname(from); ; d = dirname(d)) {
    const p = join(d, 'tsconfig.json');
    if (existsSync(p)) return readFileSync(p, 'utf8');
    if (dirname(d) === d) return undefined;
  }
}

export function skiffScopePlugin(options: SkiffScopePluginOptions = {}): EsbuildPlugin {
  const filter = options.filter ?? DEFAULT_FILTER;
  return {
    name: 'skiff-scope',
    setup(build) {
      const tsconfigs = new Map<string, string | undefined>();
      build.onLoad({ filter }, async ({ path }) => {
        if (!options.includeNodeModules && /[\\/]node_modules[\\/]/.test(path)) return undefined;
        if (path.endsWith('.d.ts')) return undefined;
        const source = await readFile(path, 'utf8');
        const loader = loaderFor(path);
        let js = source;
        if (loader !== 'js') {
          const dir = dirname(path);
          if (!tsconfigs.has(dir)) tsconfigs.set(dir, nearestTsconfig(path));
          const tsconfigRaw = options.tsconfigRaw ?? build.initialOptions.tsconfigRaw ?? tsconfigs.get(dir);
          // Keep ESM syntax and modern output: esbuild lowers for the target when it bundles.
          js = (await build.esbuild.transform(source, { loader, sourcefile: path, sourcemap: 'inline', target: 'esnext', ...(tsconfigRaw ? { tsconfigRaw } : {}) })).code;
        }
        // esbuild's transform already compiled TS and JSX away: what is left is plain JavaScript.
        return { contents: transformScopes(js, { filename: path }).code, loader: 'js', resolveDir: dirname(path) };
      });
    },
  };
}

export default skiffScopePlugin;
