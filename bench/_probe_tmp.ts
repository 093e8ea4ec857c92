import { paddle } from '../src/paddle.js';
let seed = 12345;
const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
let fails = 0, cases = 0;
for (let t = 0; t < 400; t++) {
  const rank = Math.floor(rnd() * 5);
  const shape = Array.from({ length: rank }, () => [1, 2, 3, 5, 17, 300][Math.floor(rnd() * 6)]);
  let n = shape.reduce((a, b) => a * b, 1);
  if (n > 200000) continue;
  const data = Array.from({ length: n }, () => Math.round((rnd() * 4 - 2) * 8) / 8);
  const x = paddle.to_tensor(data.length ? data : [], 'float64').reshape ? null : null;
  const xt = paddle.to_tensor(new Float64Array(data));
  const xs = rank ? paddle.reshape(xt, shape) : paddle.reshape(xt, []);
  const axes = [...Array(rank).keys()].filter(() => rnd() < 0.5);
  const keepdim = rnd() < 0.5;
  for (const op of ['sum', 'max', 'prod', 'var', 'any', 'argmax', 'cumsum']) {
    if (op === 'max' && n === 0) continue;
    let attrs: any;
    if (op === 'argmax' || op === 'cumsum') { if (rank === 0 || (op === 'argmax' && n === 0)) continue; attrs = { axis: Math.floor(rnd() * rank) }; if (op === 'argmax') attrs.keepdim = keepdim; }
    else attrs = { axis: axes.length ? axes : null, keepdim };
    const got = paddle[op](xs, attrs);
    // reference
    const st = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
    const red = op === 'argmax' || op === 'cumsum' ? [attrs.axis] : (axes.length ? axes : [...Array(rank).keys()]);
    const groups = new Map<number, number[]>();
    const outIdx: number[] = [];
    for (let i = 0; i < n; i++) {
      let rem = i, key = 0, mul = 1; const idx = shape.map(() => 0);
      for (let d = rank - 1; d >= 0; d--) { idx[d] = rem % shape[d]; rem = Math.floor(rem / shape[d]); }
      for (let d = rank - 1; d >= 0; d--) if (!red.includes(d)) { key += idx[d] * mul; mul *= shape[d]; }
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(data[i]);
    }
    const want: number[] = [];
    if (op === 'cumsum') {
      const ax = attrs.axis; const out = new Array(n);
      for (let i = 0; i < n; i++) { let acc = 0; const pos = Math.floor(i / st[ax]) % shape[ax]; for (let k = 0; k <= pos; k++) acc += data[i - (pos - k) * st[ax]]; out[i] = acc; }
      want.push(...out);
    } else {
      const nOut = shape.filter((_, d) => !red.includes(d)).reduce((a, b) => a * b, 1);
      for (let o = 0; o < nOut; o++) {
        const g = groups.get(o) ?? [];
        const s = g.reduce((a, b) => a + b, 0), m = s / g.length;
        want.push(op === 'sum' ? s : op === 'max' ? Math.max(...g) : op === 'prod' ? g.reduce((a, b) => a * b, 1) : op === 'any' ? (g.some((v) => v !== 0) ? 1 : 0)
          : op === 'argmax' ? g.indexOf(Math.max(...g)) : g.reduce((a, b) => a + (b - m) ** 2, 0) / (g.length - 1));
      }
    }
    const gv = (got.dataSync() as (number | boolean)[]).map(Number);
    cases++;
    const bad = gv.length !== want.length || gv.some((v, i) => !(Math.abs(v - want[i]) <= 1e-9 * (1 + Math.abs(want[i])) || (Number.isNaN(v) && Number.isNaN(want[i]))));
    if (bad && fails++ < 5) console.log('MISMATCH', op, JSON.stringify(shape), JSON.stringify(attrs), gv.slice(0, 6), want.slice(0, 6));
  }
}
console.log('cases', cases, 'fails', fails);
