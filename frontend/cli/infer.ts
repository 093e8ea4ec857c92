// `skiff infer model.pir --input x=file.npy|random:1x3x28x28 [--bench N]`: loads a model saved
// by paddle.jit.save (src/jit) and runs it from the command line: prints each output's name,
// dtype, shape and values, or with --bench N the latency percentiles of N timed runs.
// Inputs are .npy files (read here: version 1-3 headers, little-endian numeric dtypes, C order)
// or random tensors of a given shape; an input the command line leaves out is an error naming it.
import { readFileSync } from 'node:fs';
import { load, type TranslatedLayer } from '../../src/jit/index.js';
import { native } from '../../src/native.js';
import { runOp } from '../../src/ops/dispatch.js';
import { DTYPE_CODE, type DType, isFloating, ITEMSIZE } from '../../src/tensor/dtype.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { paddle } from '../../src/paddle.js';

const NPY_DTYPES: Record<string, DType> = {
  '<f4': 'float32', '<f8': 'float64', '<f2': 'float16', '<i4': 'int32', '<i8': 'int64', '|i1': 'int8', '|u1': 'uint8', '|b1': 'bool',
};

/** Reads a .npy file into a Tensor (checks the header and the data size against the file). */
export function readNpy(file: string): Tensor {
  let b: Buffer;
  try { b = readFileSync(file); } catch (e) { throw new Error(`${file}: cannot read the file (${(e as NodeJS.ErrnoException).code ?? e})`); }
  const bad = (msg: string): never => { throw new Error(`${file}: not a readable .npy file: ${msg}`); };
  if (b.length < 10 || b.toString('latin1', 0, 6) !== '\x93NUMPY') bad('no \\x93NUMPY magic');
  const major = b[6];
  if (major < 1 || major > 3) bad(`format version ${major}.${b[7]} is not supported`);
  const hlen = major === 1 ? b.readUInt16LE(8) : (b.length >= 12 ? b.readUInt32LE(8) : bad('truncated header'));
  const start = major === 1 ? 10 : 12;
  if (start + hlen > b.length) bad(`the header declares ${hlen} bytes, more than the file holds`);
  const header = b.toString(major === 3 ? 'utf8' : 'latin1', start, start + hlen);
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1] ?? bad('no descr in the header');
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1] ?? bad('no fortran_order in the header');
  if (fortran === 'True') bad('Fortran-ordered arrays are not supported (save with np.ascontiguousarray)');
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1] ?? bad('no shape in the header');
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => (/^\d+$/.test(s) ? Number(s) : bad(`bad dim '${s}'`)));
  const dtype = NPY_DTYPES[descr] ?? bad(`dtype '${descr}' is not supported (use ${Object.keys(NPY_DTYPES).join(', ')})`);
  const n = shape.reduce((a, d) => a * d, 1);
  const data = b.subarray(start + hlen);
  if (data.length !== n * ITEMSIZE[dtype]) bad(`shape (${shape.join(', ')}) of ${descr} needs ${n * ITEMSIZE[dtype]} data bytes, the file has ${data.length}`);
  return new Tensor(native.fromBytes(DTYPE_CODE[dtype], shape, Uint8Array.from(data)), dtype, shape);
}

/** One `name=spec` input: a .npy file or `random:AxBxC` (symbolic dims need a size here). */
function makeInput(spec: string, dtype: DType, want: readonly number[], name: string): Tensor {
  if (spec.startsWith('random:')) {
    const dims = spec.slice('random:'.length).split(/[x,]/).filter((s) => s !== '');
    if (!dims.every((d) => /^\d+$/.test(d))) throw new Error(`infer: --input ${name}=${spec}: the shape must be sizes joined by 'x' (random:1x3x28x28)`);
    const shape = dims.map(Number);
    if (shape.length !== want.length || want.some((d, i) => d !== -1 && d !== shape[i])) {
      throw new Error(`infer: input '${name}' must have shape [${want.map((d) => (d === -1 ? 'N' : d)).join(', ')}], got random:${shape.join('x')}`);
    }
    if (isFloating(dtype)) return paddle.randn(shape, dtype) as Tensor;
    if (dtype === 'bool') return paddle.cast(paddle.randint(0, 2, shape, 'int32'), 'bool') as Tensor;
    return paddle.randint(0, 10, shape, dtype) as Tensor;
  }
  const t = readNpy(spec);
  if (t.dtype === dtype) return t;
  const c = runOp('cast', [t], { dtype })[0] as Tensor;
  t.dispose();
  return c;
}

export interface InferOptions { input?: string[]; bench?: string; warmup?: string }

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The `skiff infer` command; returns the text it prints. */
export function runInfer(model: string, opts: InferOptions): string {
  const layer: TranslatedLayer = load(model);
  const given = new Map<string, string>();
  const ins = layer.header.inputs;
  for (const item of opts.input ?? []) {
    const eq = item.indexOf('=');
    // A model with one input takes an unnamed spec too (`--input random:1x4`).
    if (ins.length === 1 && opts.input?.length === 1 && (eq < 0 || item.startsWith('random:'))) { given.set(ins[0].name, item); continue; }
    if (eq <= 0) throw new Error(`infer: --input expects name=file.npy or name=random:AxB, got '${item}'`);
    given.set(item.slice(0, eq), item.slice(eq + 1));
  }
  for (const n of given.keys()) if (!ins.some((i) => i.name === n)) throw new Error(`infer: the model has no input '${n}' (inputs: ${ins.map((i) => i.name).join(', ')})`);
  const tensors = ins.map((info) => {
    const spec = given.get(info.name);
    if (spec === undefined) throw new Error(`infer: input '${info.name}' (${info.dtype}[${info.shape.map((d) => (d === -1 ? 'N' : d)).join(', ')}]) is missing: give --input ${info.name}=file.npy or ${info.name}=random:${info.shape.map((d) => (d === -1 ? 1 : d)).join('x')}`);
    return makeInput(spec, info.dtype, info.shape, info.name);
  });
  const lines: string[] = [];
  if (opts.bench !== undefined) {
    const n = Number(opts.bench);
    if (!Number.isInteger(n) || n < 1) throw new Error(`infer: --bench expects a run count >= 1, got '${opts.bench}'`);
    const warm = Math.max(1, Math.min(10, Math.ceil(n / 10)));
    for (let i = 0; i < warm; i++) for (const t of layer.run(tensors)) t.dispose();
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const outs = layer.run(tensors);
      ms.push(performance.now() - t0);
      for (const t of outs) t.dispose();
    }
    ms.sort((a, b) => a - b);
    const mean = ms.reduce((a, b) => a + b, 0) / n;
    lines.push(`${model}: ${n} runs (after ${warm} warm-up), inputs ${tensors.map((t, i) => `${ins[i].name}=${t.dtype}[${t.shape.join(', ')}]`).join(' ')}`);
    lines.push(`latency ms: mean ${mean.toFixed(3)}  p50 ${pct(ms, 50).toFixed(3)}  p90 ${pct(ms, 90).toFixed(3)}  p99 ${pct(ms, 99).toFixed(3)}  min ${ms[0].toFixed(3)}  max ${ms[n - 1].toFixed(3)}`);
  } else {
    const outs = layer.run(tensors);
    outs.forEach((t, i) => {
      lines.push(`${layer.header.outputs[i].name}: ${t.dtype}[${t.shape.join(', ')}]`);
      lines.push(String(t));
      // Scores per row (a classifier's logits): say which class each row predicts.
      if (t.shape.length === 2 && t.shape[1] > 1 && isFloating(t.dtype)) {
        const cls = paddle.argmax(t, 1) as Tensor;
        lines.push(`predicted class per row (argmax over ${t.shape[1]}): [${(cls.tolist() as number[]).join(', ')}]`);
        cls.dispose();
      }
      t.dispose();
    });
  }
  for (const t of tensors) t.dispose();
  layer.dispose();
  return lines.join('\n');
}
