// `skiff export model.py --input-spec x:float32:-1x1x28x28 [--format pir|onnx] [-o path] [--layer NAME]`:
// runs the script (as module `__skiff_export__`, so a `__main__` block is skipped), takes its
// global `model` (or `build()`'s result, or the global named by --layer) and writes it with
// paddle.jit.save (path.pir + path.pdiparams) or paddle.onnx.export (path.onnx). The Python half
// is compat/_skiff/export_cli.py; the specs are parsed here so a typo fails before Pyodide starts.
import { mkdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { PythonHost } from '../python/host.js';

export const EXPORT_FORMATS = ['pir', 'onnx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ParsedSpec { name: string | null; dtype: string; shape: (number | null)[] }

const DTYPES = new Set(['float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool']);

/**
 * One `--input-spec`: `[name:][dtype:]shape`, the shape as dims joined by `x` or `,`; `-1`,
 * `None` or `?` is a symbolic dim. The dtype defaults to float32.
 * @example parseInputSpec('x:float32:-1x1x28x28') // { name: 'x', dtype: 'float32', shape: [null, 1, 28, 28] }
 */
export function parseInputSpec(text: string): ParsedSpec {
  const parts = text.split(':');
  const bad = (why: string): never => {
    throw new Error(`export: --input-spec '${text}': ${why} (expected [name:][dtype:]shape, e.g. x:float32:-1x1x28x28)`);
  };
  if (parts.length > 3 || parts.some((p) => p === '')) bad('empty or too many fields');
  const shapeText = parts[parts.length - 1];
  let name: string | null = null, dtype = 'float32';
  if (parts.length === 3) [name, dtype] = [parts[0], parts[1]];
  else if (parts.length === 2) {
    if (DTYPES.has(parts[0])) dtype = parts[0];
    else name = parts[0];
  }
  if (name !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) bad(`'${name}' is not a valid input name`);
  if (!DTYPES.has(dtype)) bad(`unknown dtype '${dtype}' (one of ${[...DTYPES].join(', ')})`);
  const dims = shapeText === 'scalar' ? [] : shapeText.split(/[x,]/);
  const shape = dims.map((d) => {
    if (d === '-1' || d === 'None' || d === '?') return null;
    if (!/^\d+$/.test(d)) bad(`dim '${d}' is not a size, -1 or None`);
    return Number(d);
  });
  return { name, dtype, shape };
}

export interface ExportOptions { inputSpec?: string[]; format?: string; output?: string; layer?: string; opset?: string }

/** The output prefix: -o without a .pir/.pdiparams/.onnx suffix, else the script's stem in the cwd. */
export function exportPrefix(script: string, output?: string): string {
  if (output) return resolve(output.replace(/\.(pir|pdiparams|onnx)$/, ''));
  return resolve(basename(script).replace(/\.py$/, ''));
}

/** Validated options for compat/_skiff/export_cli.py (throws naming the bad option). */
export function exportRequest(script: string, opts: ExportOptions): { specs: ParsedSpec[]; format: ExportFormat; out: string; layer: string | null; opset: number } {
  const format = (opts.format ?? 'pir') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`export: --format must be one of ${EXPORT_FORMATS.join(', ')}, got '${opts.format}'`);
  const specs = (opts.inputSpec ?? []).map(parseInputSpec);
  if (format === 'onnx' && !specs.length) throw new Error('export: --format onnx needs --input-spec (one per forward argument)');
  const opset = opts.opset === undefined ? 17 : Number(opts.opset);
  if (!Number.isInteger(opset)) throw new Error(`export: --opset expects an integer, got '${opts.opset}'`);
  if (opts.layer !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.layer)) throw new Error(`export: --layer '${opts.layer}' is not a Python name`);
  return { specs, format, out: exportPrefix(script, opts.output), layer: opts.layer ?? null, opset };
}

/** Runs the export in `host`; returns Python's exit code. */
export function runExport(host: PythonHost, script: string, opts: ExportOptions, cwd = process.cwd()): number {
  const req = exportRequest(script, opts);
  // Python writes the files itself: the output directory is mounted into its file system.
  mkdirSync(dirname(req.out), { recursive: true });
  const outFs = `${host.fsPathOf(dirname(req.out))}/${basename(req.out)}`;
  const fsScript = host.fsPathOf(script);
  const fsCwd = host.mount(cwd);
  return host.call<number>('_skiff.export_cli', 'export_path', fsScript, JSON.stringify({ ...req, out: outFs }), fsCwd);
}
