// `skiff infer`: runs a saved model on .npy and random inputs, prints outputs or latency
// percentiles, and names what is wrong with a bad input (runInfer, the command's body).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readNpy, runInfer } from '../../frontend/cli/infer.js';
import { buildProgram } from '../../frontend/cli/main.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-infer-'));
const model = join(dir, 'affine');

/** A version-1 .npy of float32 values. */
function npy(file: string, shape: number[], values: number[], descr = '<f4'): void {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1'); head[6] = 1; head[7] = 0; head.writeUInt16LE(header.length, 8);
  writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]));
}

beforeAll(() => {
  const w = paddle.to_tensor([[1, 0], [0, 2]], 'float32');
  paddle.jit.save((x: Tensor) => paddle.add(paddle.matmul(x, w), paddle.to_tensor([1, 1], 'float32')), model,
    { input_spec: [new paddle.jit.InputSpec([null, 2], 'float32', 'x')] });
});

describe('skiff infer', () => {
  it('the command is registered', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('infer');
  });

  it('runs on a .npy input and prints the outputs', () => {
    npy(join(dir, 'x.npy'), [2, 2], [1, 2, 3, 4]);
    const out = runInfer(`${model}.pir`, { input: [`x=${join(dir, 'x.npy')}`] });
    expect(out).toContain('output_0: float32[2, 2]');
    expect(out).toMatch(/\[\[2\.?0*, +5\.?0*\],\s+\[4\.?0*, +9\.?0*\]\]/);
    expect(out).toContain('predicted class per row (argmax over 2): [1, 1]');
    expect(readNpy(join(dir, 'x.npy')).tolist()).toEqual([[1, 2], [3, 4]]);
  });

  it('random inputs and --bench print latency percentiles', () => {
    expect(runInfer(model, { input: ['x=random:7x2'] })).toContain('output_0: float32[7, 2]');
    const b = runInfer(model, { input: ['random:3x2'], bench: '20' });
    expect(b).toMatch(/20 runs/);
    expect(b).toMatch(/latency ms: mean [\d.]+ +p50 [\d.]+ +p90 [\d.]+ +p99 [\d.]+/);
  });

  it('bad inputs are named', () => {
    expect(() => runInfer(model, {})).toThrow(/input 'x' \(float32\[N, 2\]\) is missing/);
    expect(() => runInfer(model, { input: ['y=random:1x2', 'x=random:1x2'] })).toThrow(/no input 'y'/);
    expect(() => runInfer(model, { input: ['x=random:1x3'] })).toThrow(/must have shape \[N, 2\]/);
    expect(() => runInfer(model, { input: ['x=random:1x2'], bench: '0' })).toThrow(/--bench expects a run count/);
    writeFileSync(join(dir, 'bad.npy'), Buffer.from('\x93NUMPY\x01\x00\xff\x00{', 'latin1'));
    expect(() => runInfer(model, { input: [`x=${join(dir, 'bad.npy')}`] })).toThrow(/bad\.npy: not a readable \.npy file: the header declares 255 bytes/);
    npy(join(dir, 'short.npy'), [3, 2], [1, 2, 3]);
    expect(() => readNpy(join(dir, 'short.npy'))).toThrow(/needs 24 data bytes, the file has 12/);
  });
});
