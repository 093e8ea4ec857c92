// `skiff export`: input-spec parsing, the script's model picked by `model` / `build()` /
// --layer (its `__main__` block skipped), written as .pir + .pdiparams (loaded back with
// paddle.jit.load) or .onnx (run in onnxruntime-node), and clear errors for bad options and
// scripts without a model.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { exportPrefix, exportRequest, parseInputSpec, runExport } from '../../frontend/cli/export.js';
import { buildProgram } from '../../frontend/cli/main.js';
import { usePython } from '../python/host_fixture.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const dir = mkdtempSync(join(tmpdir(), 'skiff-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// y = relu(x @ W + b) with known weights, so the test computes the expected output itself.
const W = [[1, -2], [0.5, 1], [-1, 3]];
const B = [0.25, -0.5];
const SCRIPT = `
import paddle

class Affine(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 2)
        self.fc.weight.set_value(paddle.to_tensor(${JSON.stringify(W)}, 'float32'))
        self.fc.bias.set_value(paddle.to_tensor(${JSON.stringify(B)}, 'float32'))
    def forward(self, x):
        return paddle.nn.functional.relu(self.fc(x))

def build():
    return Affine()

def doubled(x):
    return x * 2.0

MODEL_KIND

if __name__ == '__main__':
    raise SystemExit('the __main__ block must not run during export')
`;

function script(name: string, kind: string): string {
  const f = join(dir, `${name}.py`);
  writeFileSync(f, SCRIPT.replace('MODEL_KIND', kind));
  return f;
}

const expected = (x: number[][]): number[][] => x.map((r) => B.map((b, j) => Math.max(0, r.reduce((a, v, i) => a + v * W[i][j], b))));
const X = [[1, 2, 3], [-1, 0.5, 2], [0, 0, 0]];

function expectRows(got: number[][], want: number[][]): void {
  expect(got.length).toBe(want.length);
  got.forEach((r, i) => r.forEach((v, j) => expect(v).toBeCloseTo(want[i][j], 5)));
}

describe('skiff export: options', () => {
  it('the command is registered', () => {
    expect(buildProgram().commands.map((c) => c.name())).toContain('export');
  });

  const good: [string, ReturnType<typeof parseInputSpec>][] = [
    ['x:float32:-1x1x28x28', { name: 'x', dtype: 'float32', shape: [null, 1, 28, 28] }],
    ['ids:int64:Nonex16', { name: 'ids', dtype: 'int64', shape: [null, 16] }],
    ['int32:2,3', { name: null, dtype: 'int32', shape: [2, 3] }],
    ['img:?x3', { name: 'img', dtype: 'float32', shape: [null, 3] }],
    ['4', { name: null, dtype: 'float32', shape: [4] }],
    ['s:scalar', { name: 's', dtype: 'float32', shape: [] }],
  ];
  for (const [text, want] of good) it(`parses ${text}`, () => expect(parseInputSpec(text)).toEqual(want));

  const bad: [string, RegExp][] = [
    ['x:float32:1xax3', /dim 'a' is not a size/],
    ['x:complex7:1x2', /unknown dtype 'complex7'/],
    ['a:b:c:d', /empty or too many fields/],
    ['x::1', /empty or too many fields/],
    ['1x:float32:2', /'1x' is not a valid input name/],
  ];
  for (const [text, err] of bad) it(`rejects ${text}`, () => expect(() => parseInputSpec(text)).toThrow(err));

  it('checks the format, opset and --layer, and strips a file suffix from -o', () => {
    expect(() => exportRequest('m.py', { format: 'tflite' })).toThrow(/--format must be one of pir, onnx, got 'tflite'/);
    expect(() => exportRequest('m.py', { format: 'onnx' })).toThrow(/--format onnx needs --input-spec/);
    expect(() => exportRequest('m.py', { opset: 'x' })).toThrow(/--opset expects an integer/);
    expect(() => exportRequest('m.py', { layer: 'a.b' })).toThrow(/--layer 'a.b' is not a Python name/);
    expect(exportPrefix('/a/b/net.py')).toBe(join(process.cwd(), 'net'));
    expect(exportPrefix('net.py', '/o/m.onnx')).toBe('/o/m');
    expect(exportPrefix('net.py', '/o/m.pir')).toBe('/o/m');
  });
});

describe('skiff export: scripts', () => {
  const py = usePython();
  const run = (file: string, opts: Parameters<typeof runExport>[2]): number => {
    py.printed.length = 0;
    const rc = runExport(py.host, file, opts);
    py.host.flush();
    return rc;
  };

  it('global `model` -> .pir + .pdiparams with a symbolic batch dim, loaded back', () => {
    const f = script('m1', 'model = Affine()');
    const out = join(dir, 'out1', 'affine');
    expect(run(f, { inputSpec: ['x:float32:-1x3'], output: out }), py.printed.join('')).toBe(0);
    expect(py.printed.join('')).toContain(`model -> ${out}.pir, ${out}.pdiparams`);
    const layer = paddle.jit.load(out);
    expect(layer.header.inputs).toEqual([{ name: 'x', dtype: 'float32', shape: [-1, 3] }]);
    const [y] = layer.run([paddle.to_tensor(X, 'float32')]) as Tensor[];
    expectRows(y.tolist() as number[][], expected(X));
  }, 60_000);

  it('`build()` -> .onnx that onnxruntime runs; --layer picks a function', async () => {
    const f = script('m2', '');
    const out = join(dir, 'affine2');
    expect(run(f, { inputSpec: ['inp:-1x3'], format: 'onnx', output: `${out}.onnx` }), py.printed.join('')).toBe(0);
    expect(py.printed.join('')).toContain('build() ->');
    const s = await ort.InferenceSession.create(new Uint8Array(readFileSync(`${out}.onnx`)));
    const r = await s.run({ inp: new ort.Tensor('float32', Float32Array.from(X.flat()), [3, 3]) });
    const y = [...(r[s.outputNames[0]].data as Float32Array)];
    expectRows([y.slice(0, 2), y.slice(2, 4), y.slice(4, 6)], expected(X));
    await s.release();

    expect(run(f, { inputSpec: ['x:2x2'], layer: 'doubled', output: join(dir, 'dbl') }), py.printed.join('')).toBe(0);
    const [d] = paddle.jit.load(join(dir, 'dbl')).run([paddle.to_tensor([[1, 2], [3, 4]], 'float32')]) as Tensor[];
    expect(d.tolist()).toEqual([[2, 4], [6, 8]]);
  }, 60_000);

  it('without --input-spec, the input_spec given to to_static is used', () => {
    const f = script('m3', "model = paddle.jit.to_static(Affine(), input_spec=[paddle.static.InputSpec([None, 3], 'float32', 'feat')])");
    expect(run(f, { output: join(dir, 'ts') }), py.printed.join('')).toBe(0);
    const layer = paddle.jit.load(join(dir, 'ts'));
    expect(layer.header.inputs).toEqual([{ name: 'feat', dtype: 'float32', shape: [-1, 3] }]);
    const [y] = layer.run([paddle.to_tensor(X, 'float32')]) as Tensor[];
    expectRows(y.tolist() as number[][], expected(X));
  }, 30_000);

  it('a script without a model, or a missing --layer, fails naming what to define', () => {
    const f = join(dir, 'empty.py');
    writeFileSync(f, 'x = 1\n');
    expect(run(f, { inputSpec: ['2'] })).toBe(1);
    expect(py.printed.join('')).toMatch(/must define a global `model`.*`build\(\)`.*--layer/);
    expect(run(f, { inputSpec: ['2'], layer: 'net' })).toBe(1);
    expect(py.printed.join('')).toMatch(/defines no global named 'net'/);
    expect(run(f, { inputSpec: ['2'], layer: 'x' })).toBe(1);
    expect(py.printed.join('')).toMatch(/x in .* is int, not a Layer or function/);
  }, 30_000);
});
