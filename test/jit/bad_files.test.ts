// Bad model files: truncated, corrupted, wrong-version or inconsistent .pir / .pdmodel /
// .pdiparams raise a ModelFileError naming the file and the problem (never a crash or a huge
// allocation), plus deterministic mutation fuzzing over saved models (model_fuzz.ts; the long
// run is bench/fuzz_models.ts).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { decodePdiparams, encodePdiparams, ModelFileError } from '../../src/jit/pdiparams.js';
import { encodeProgramDesc as encodeDesc } from '../../src/jit/pdmodel/schema.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fuzzModels, makeBaseModels } from './model_fuzz.js';
import { F, L, PdModelBuilder } from './pdmodel_builder.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-jit-bad-'));
const base = join(dir, 'base');
let text = '';
let params: Buffer;

beforeAll(() => {
  paddle.seed(5);
  const fc = new paddle.nn.Linear(4, 3);
  paddle.jit.save((x: Tensor) => paddle.nn.functional.relu(fc.call(x)), base, { input_spec: [new paddle.jit.InputSpec([null, 4], 'float32', 'x')] });
  text = readFileSync(`${base}.pir`, 'utf8');
  params = readFileSync(`${base}.pdiparams`);
});

/** Writes a model whose text and params are the given ones; returns its prefix. */
let k = 0;
function variant(t: string | Buffer, p: Buffer = params): string {
  const prefix = join(dir, `v${k++}`);
  writeFileSync(`${prefix}.pir`, t);
  writeFileSync(`${prefix}.pdiparams`, p);
  return prefix;
}

function expectFileError(prefix: string, file: string, pattern: RegExp): void {
  let err: unknown = null;
  try { paddle.jit.load(prefix); } catch (e) { err = e; }
  expect(err, 'load must fail').toBeInstanceOf(ModelFileError);
  expect((err as Error).message).toContain(`${prefix}${file}`);
  expect((err as Error).message).toMatch(pattern);
}

describe('bad model files', () => {
  it('the good model loads', () => {
    const m = paddle.jit.load(base);
    expect((m.call(paddle.ones([2, 4])) as Tensor).shape).toEqual([2, 3]);
  });

  it('missing files', () => {
    const prefix = join(dir, 'nothing');
    expectFileError(prefix, '.pir', /cannot read the file \(ENOENT\)/);
    copyFileSync(`${base}.pir`, `${prefix}.pir`);
    expectFileError(prefix, '.pdiparams', /cannot read the file/);
  });

  it('headers: missing, not JSON, wrong version, bad entries', () => {
    expectFileError(variant(text.slice(text.indexOf('\n') + 1)), '.pir', /not a Skiff model/);
    expectFileError(variant(text.replace('"version":1', '"version":1,')), '.pir', /header is not valid JSON/);
    expectFileError(variant(text.replace('"version":1', '"version":99')), '.pir', /format version 99 is not supported/);
    expectFileError(variant(text.replace('"dtype":"float32"', '"dtype":"float99"')), '.pir', /unknown dtype "float99"/);
    expectFileError(variant(text.replace('"shape":[-1,4]', '"shape":[-1,5]')), '.pir', /feed 'x' is tensor<s0x4xf32>, the header says float32\[-1, 5\]/);
    expectFileError(variant(text.replace('"name":"x"', '"name":"z"')), '.pir', /feed 0 is 'x', the header lists 'z'/);
  });

  it('programs: truncated, unknown ops, non-SSA, undeclared parameters', () => {
    expectFileError(variant(text.slice(0, Math.floor(text.length * 0.7))), '.pir', /invalid program/);
    expectFileError(variant(text.replace('"pd_op.fused_gemm_epilogue"', '"pd_op.no_such_op"')), '.pir', /invalid program/);
    // a use before its definition (a cycle through %N)
    const cyc = text.replace('"pd_op.fused_gemm_epilogue" (%0,', '"pd_op.fused_gemm_epilogue" (%3,');
    expectFileError(variant(cyc), '.pir', /invalid program/);
    expectFileError(variant(text.replace(/parameter_name:"([^"]+)"/, 'parameter_name:"other"')), '.pir', /parameter 'other', which the header does not list/);
    // a consistent program whose values are 32 GB: refused before anything is allocated
    const huge = text.replace(/s0x/g, '2000000000x').replace('shape[s0, 4]', 'shape[2000000000, 4]').replace('[-1,4]', '[2000000000,4]').replace('[-1,3]', '[2000000000,3]');
    expectFileError(variant(huge), '.pir', /"pd_op.data" produces tensor<2000000000x4xf32>, 32000000000 bytes/);
    // a fused op with a wrong operand type
    expectFileError(variant(text.replace('tensor<4x3xf32>, tensor<3xf32>) ->', 'tensor<4x3xf64>, tensor<3xf32>) ->')), '.pir', /invalid program/);
  });

  it('parameter files: truncated, trailing bytes, huge sizes, dtype and shape mismatches', () => {
    expectFileError(variant(text, params.subarray(0, params.length - 3)), '.pdiparams', /truncated/);
    expectFileError(variant(text, params.subarray(0, 10)), '.pdiparams', /truncated/);
    expectFileError(variant(text, Buffer.concat([params, Buffer.from([1, 2])])), '.pdiparams', /2 bytes follow the last/);
    const lod = Buffer.from(params); lod.writeBigUInt64LE(1n, 4); lod.writeBigUInt64LE(1n << 60n, 12);
    expectFileError(variant(text, lod), '.pdiparams', /more than the file holds|truncated/);
    const desc = Buffer.from(params); desc.writeInt32LE(0x7fffffff, 16);
    expectFileError(variant(text, desc), '.pdiparams', /TensorDesc size 2147483647 is out of range/);
    const dt = Buffer.from(params); dt[21] = 6;  // data_type fp32 (5) -> fp64 (6)
    expectFileError(variant(text, dt), '.pdiparams', /has dtype float64, the model expects float32/);
    const cplx = Buffer.from(params); cplx[21] = 23;
    expectFileError(variant(text, cplx), '.pdiparams', /complex64 is not supported/);
  });

  it('the parameter stream is Paddle\'s layout', () => {
    const t = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], 'float32');
    const b = encodePdiparams([t]);
    // version 0 | lod levels 0 | tensor version 0 | desc size | desc (type fp32=5; dims 2, 3) | 24 data bytes
    expect([...b.subarray(0, 16)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect([...b.subarray(16, 20)]).toEqual([6, 0, 0, 0]);
    expect([...b.subarray(20, 26)]).toEqual([0x08, 5, 0x10, 2, 0x10, 3]);
    expect(b.length).toBe(26 + 24);
    const [back] = decodePdiparams(b, [{ name: 'w', dtype: 'float32', shape: [2, 3] }], 'mem');
    expect(back.tolist()).toEqual([[1, 2, 3], [4, 5, 6]]);
    // packed dims (proto3-style writers) read the same
    const packed = Uint8Array.from([...b.subarray(0, 16), 6, 0, 0, 0, 0x08, 5, 0x12, 2, 2, 3, ...b.subarray(26)]);
    expect(decodePdiparams(packed, [{ name: 'w', dtype: 'float32', shape: [2, 3] }], 'mem')[0].tolist()).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(() => decodePdiparams(b, [{ name: 'w', dtype: 'float32', shape: [3, 2] }], 'mem')).toThrow(/mem: parameter 'w' has shape \[2, 3\], the model expects \[3, 2\]/);
  });

  it('mutation fuzz: every mutated model loads and runs or fails with a ModelFileError naming a file', () => {
    let seed = 12345;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    for (let i = 0; i < 60; i++) {
      let t: string | Buffer = text, p = Buffer.from(params);
      const kind = rnd(4);
      if (kind === 0) { const at = rnd(text.length); t = text.slice(0, at) + String.fromCharCode(32 + rnd(90)) + text.slice(at + 1); }
      else if (kind === 1) t = text.slice(0, rnd(text.length));
      else if (kind === 2) { p[rnd(p.length)] = rnd(256); }
      else p = p.subarray(0, rnd(p.length));
      const prefix = variant(t, p);
      try {
        const m = paddle.jit.load(prefix);
        m.call(paddle.ones([2, 4]));
      } catch (e) {
        expect(e instanceof ModelFileError || /v\d+\.pir/.test((e as Error).message), `case ${i}: ${(e as Error).message}`).toBe(true);
      }
    }
  });

  it('Paddle .pdmodel files: truncated, wrong version, huge dims, parameter mismatches, hostile shapes', () => {
    const good = (): PdModelBuilder => {
      const b = new PdModelBuilder();
      b.feed('x', [-1, 4]);
      b.param('w', paddle.ones([4, 3]));
      b.op('matmul_v2', { X: 'x', Y: 'w' }, { Out: 'y' });
      b.fetch('y');
      return b;
    };
    const write = (model: Uint8Array, params: Uint8Array): string => {
      const prefix = join(dir, `pd${k++}`);
      writeFileSync(`${prefix}.pdmodel`, model);
      writeFileSync(`${prefix}.pdiparams`, params);
      return prefix;
    };
    const { model, params: p } = good().encode();
    expect((paddle.jit.load(write(model, p)).call(paddle.ones([2, 4])) as Tensor).tolist()).toEqual([[4, 4, 4], [4, 4, 4]]);
    expectFileError(write(model.subarray(0, model.length - 7), p), '.pdmodel', /not a Paddle ProgramDesc \(protobuf decoding failed/);
    expectFileError(write(model, p.subarray(0, p.length - 1)), '.pdiparams', /truncated: parameter 'w' data/);
    const v = good(); v.version = 4_000_000;
    expectFileError(write(v.encode().model, p), '.pdmodel', /ProgramDesc version 4000000 is not supported/);
    // the VarDesc says float64: the parameter stream holds float32
    const d = good().desc();
    d.blocks![0].vars!.find((x) => x.name === 'w')!.type.lod_tensor!.tensor.data_type = 6;
    expectFileError(write(encodeDesc(d), p), '.pdiparams', /parameter 'w' has dtype float32, the model expects float64/);
    const s = good().desc();
    s.blocks![0].vars!.find((x) => x.name === 'w')!.type.lod_tensor!.tensor.dims = [3, 4];
    expectFileError(write(encodeDesc(s), p), '.pdiparams', /parameter 'w' has shape \[4, 3\], the model expects \[3, 4\]/);
    const h = good().desc();
    h.blocks![0].vars!.find((x) => x.name === 'w')!.type.lod_tensor!.tensor.dims = [2 ** 40, 2 ** 40];
    expectFileError(write(encodeDesc(h), p), '.pdiparams', /parameter 'w' has shape \[4, 3\], the model expects \[1099511627776, 1099511627776\]/);
    // a constant of 40 GB is refused before anything allocates it
    const big = good();
    big.op('fill_constant', {}, { Out: 'c' }, { shape: L([100000, 100000]), value: F(1), dtype: 5 });
    big.op('reduce_sum', { X: 'c' }, { Out: 'cs' }, { reduce_all: true });
    big.op('elementwise_add', { X: 'y', Y: 'cs' }, { Out: 'z' });
    big.fetch('z');
    const bm = big.encode();
    expectFileError(write(bm.model, bm.params), '.pdmodel', /op 2 'fill_constant': full would produce float32\[100000, 100000\]/);
    // a cycle: the op reads what it writes
    const cyc = good().desc();
    cyc.blocks![0].ops![1].inputs![0].arguments = ['y'];
    expectFileError(write(encodeDesc(cyc), p), '.pdmodel', /op 1 'matmul_v2': input X reads variable 'y', which no earlier op/);
  });

  it('mutation fuzz over .pir, .pdmodel and .pdiparams: load and run, or an Error naming the file', () => {
    const base = makeBaseModels(dir);
    for (const seed of [1, 2]) {
      const stats = fuzzModels(dir, base, 150, seed);
      expect(stats.findings, stats.findings.join('\n')).toEqual([]);
      expect(stats.cases).toBe(150);
      // both outcomes occur: the mutations are neither all harmless nor all fatal
      expect(stats.ran).toBeGreaterThan(5);
      expect(stats.rejected).toBeGreaterThan(80);
    }
  });
});
