// Bad model files: truncated, corrupted, wrong-version or inconsistent .pir / .pdiparams raise
// a ModelFileError naming the file and the problem (never a crash or a huge allocation), plus a
// small deterministic mutation fuzz over a saved model.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { decodePdiparams, encodePdiparams, ModelFileError } from '../../src/jit/pdiparams.js';
import type { Tensor } from '../../src/tensor/tensor.js';

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
});
