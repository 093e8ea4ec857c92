// Vite / vitest plugin: the same scope transform as the esbuild plugin (transform.ts), run after
// Vite has stripped TypeScript (`enforce: 'post'`). Lines keep their numbers, so the plugin
// returns no source map of its own (`map: null` keeps the chain from the earlier transforms).
//
//   // vitest.config.ts
//   import { skiffScopeVitePlugin } from 'skiff/vite-plugin';
//   export default defineConfig({ plugins: [skiffScopeVitePlugin()] });
import { transformScopes } from './transform.js';

export interface SkiffScopeVitePluginOptions {
  /** Module ids to transform (default: .ts .tsx .mts .cts .js .jsx .mjs .cjs, query stripped). */
  filter?: RegExp;
  /** Also transform modules under node_modules (default false). */
  includeNodeModules?: boolean;
}

/** The structural shape of a Vite plugin (vite is not a dependency: vitest brings its own). */
export interface VitePlugin {
  name: string;
  enforce: 'post';
  transform(code: string, id: string): { code: string; map: null } | null;
}

const DEFAULT_FILTER = /\.(m|c)?(t|j)sx?$/;

export function skiffScopeVitePlugin(options: SkiffScopeVitePluginOptions = {}): VitePlugin {
  const filter = options.filter ?? DEFAULT_FILTER;
  return {
    name: 'skiff-scope',
    enforce: 'post',
    transform(code, id) {
      // Virtual modules (\0-prefixed) and Vite's own helpers are not user code.
      if (id.startsWith('\0') || id.includes('/@vite/') || id.includes('/@id/')) return null;
      const path = id.split('?')[0];
      if (!filter.test(path) || path.endsWith('.d.ts')) return null;
      if (!options.includeNodeModules && /[\\/]node_modules[\\/]/.test(path)) return null;
      return { code: transformScopes(code, { filename: path }).code, map: null };
    },
  };
}

export default skiffScopeVitePlugin;
