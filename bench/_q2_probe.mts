import * as ort from 'onnxruntime-node';
import { MODELS, buildModel } from '../test/passes/models.ts';
import { exportOnnx } from '../src/jit/onnx/export.ts';
import { paddle } from '../src/paddle.ts';
import { fromPir, compile } from '../src/executor/index.ts';
for (const m of MODELS) {
  const p = buildModel(m);
  const params = new Map<string, any>();
  for (const [n, s] of Object.entries(m.params)) params.set(`${m.name}.${n}`, paddle.rand(s).scale(0.5));
  const bytes = exportOnnx(p, { params: (n) => params.get(n) });
  const s = await ort.InferenceSession.create(bytes);
  for (const B of [2, 3]) {
    const x = paddle.rand([B, ...m.inTail]);
    const r = await s.run({ x: new ort.Tensor('float32', x.rawData() as Float32Array, [B, ...m.inTail]) });
    console.log(m.name, B, r.out.dims, Array.from(r.out.data as Float32Array).slice(0, 4));
  }
}
