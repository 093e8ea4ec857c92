// paddle.onnx.export: records a Layer's (or function's) forward as a PIR program by running it
// on paddle.static.data values in eval mode (parameters are captured as builtin.parameter
// values bound to the program), then converts the program with exportOnnx.
import { writeFileSync } from 'node:fs';
import type { Value } from '../../pir/index.js';
import { data } from '../../static/api.js';
import { program_guard } from '../../static/mode.js';
import { Program } from '../../static/program.js';
import { exportOnnx } from './export.js';

export { exportOnnx, onnxConvertibleOps, type ExportOnnxOptions } from './export.js';
export { decodeModel } from './schema.js';

/** An InputSpec (paddle.static.InputSpec), or any {shape, dtype?, name?}; a bare shape works too. */
export type OnnxInputSpec = { readonly shape: readonly (number | null)[]; readonly dtype?: string; readonly name?: string | null } | readonly (number | null)[];

interface LayerLike { training?: boolean; eval?(): unknown; train?(): unknown; forward?(...xs: unknown[]): unknown; call?(...xs: unknown[]): unknown }

function specOf(s: OnnxInputSpec, i: number, n: number): { name: string; shape: (number | null)[]; dtype: string } {
  const bare = Array.isArray(s);
  const shape = (bare ? s : (s as { shape: readonly (number | null)[] }).shape) as readonly (number | null)[];
  if (!Array.isArray(shape)) throw new TypeError(`paddle.onnx.export: input_spec[${i}] must be an InputSpec or a shape list, got ${String(s)}`);
  const o = bare ? {} : s as { dtype?: string; name?: string | null };
  return { name: o.name ?? (n === 1 ? 'x' : `x${i}`), shape: shape.map((d) => (d === -1 ? null : d)), dtype: o.dtype ?? 'float32' };
}

function flattenOutputs(out: unknown): Value[] {
  if (Array.isArray(out)) return out.flatMap(flattenOutputs);
  if (out && typeof out === 'object' && 'definingOp' in out) return [out as Value];
  if (out && typeof out === 'object' && !('shape' in out)) return Object.values(out).flatMap(flattenOutputs);
  throw new TypeError(`paddle.onnx.export: the forward must return program values (Tensors built from the inputs), got ${String(out)}`);
}

/**
 * The program of `layer`'s forward on `inputSpec` (eval mode; the layer's mode is restored),
 * and its output values.
 */
export function traceToProgram(layer: LayerLike | ((...xs: unknown[]) => unknown), inputSpec: readonly OnnxInputSpec[]): { program: Program; outputs: Value[] } {
  if (!Array.isArray(inputSpec) || inputSpec.length === 0) throw new TypeError('paddle.onnx.export: input_spec must be a non-empty list of InputSpec');
  const fn = typeof layer === 'function' ? layer : (...xs: unknown[]) => (layer.call ? layer.call(...xs) : layer.forward!(...xs));
  const wasTraining = typeof layer !== 'function' && layer.training === true;
  if (wasTraining) (layer as LayerLike).eval?.();
  const program = new Program();
  try {
    const outputs = program_guard(program, () => {
      const xs = inputSpec.map((s, i) => { const p = specOf(s, i, inputSpec.length); return data(p.name, p.shape, p.dtype); });
      return flattenOutputs(fn(...xs));
    });
    if (!outputs.length) throw new Error('paddle.onnx.export: the forward returned no outputs');
    return { program, outputs };
  } finally {
    if (wasTraining) (layer as LayerLike).train?.();
  }
}

/**
 * paddle.onnx.export(layer, path, input_spec, opset_version=17): writes `path` (`.onnx` is
 * appended when missing, as Paddle does) and returns the model bytes.
 * @example paddle.onnx.export(model, 'lenet', [new paddle.static.InputSpec([null, 1, 28, 28], 'float32', 'x')]);
 */
export function exportLayer(layer: LayerLike | ((...xs: unknown[]) => unknown), path: string, inputSpec: readonly OnnxInputSpec[], opsetVersion = 17): Uint8Array {
  if (typeof path !== 'string' || !path) throw new TypeError('paddle.onnx.export: path must be a non-empty string');
  const { program, outputs } = traceToProgram(layer, inputSpec);
  try {
    const bytes = exportOnnx(program, { opset: opsetVersion, outputs });
    writeFileSync(path.endsWith('.onnx') ? path : `${path}.onnx`, bytes);
    return bytes;
  } finally {
    program.dispose();
  }
}

/** The `paddle.onnx` namespace. */
export const onnxNamespace = { export: exportLayer };
