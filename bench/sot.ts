// paddle.jit.to_static from Python: cached-call overhead, cold translation time, and eager vs
// translated for an MLP at batch 1 and LeNet at batch 8, on Python 3.13 (one Pyodide per
// process: the measurement runs in a child process). Writes bench/results.md "to_static".
//
//   npx tsx bench/sot.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, table, writeSection } from './results.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const PY = String.raw`
import time, json
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

def per_call(f, args, n, reps=5):
    f(*args)
    runs = []
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            f(*args)
        runs.append((time.perf_counter() - t) / n * 1e6)
    return sorted(runs)

class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(64, 128)
        self.l2 = nn.Linear(128, 128)
        self.l3 = nn.Linear(128, 10)
    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))

class LeNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2D(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2D(2, 2),
                                      nn.Conv2D(6, 16, 5), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Sequential(nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
    def forward(self, x):
        return self.fc(paddle.flatten(self.features(x), 1))

class Block(nn.Layer):
    def __init__(self, d=64):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.ff1, self.ff2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.d = d
    def forward(self, x):
        h = self.ln1(x)
        att = F.softmax(paddle.matmul(self.q(h), self.k(h), transpose_y=True) / (self.d ** 0.5), axis=-1)
        x = x + self.o(paddle.matmul(att, self.v(h)))
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))

out = {}
paddle.seed(0)
x1 = paddle.to_tensor([1.0])
f = lambda x: x + 1
sf = paddle.jit.to_static(f)
out['lambda_eager'] = per_call(f, (x1,), 20000)
out['lambda_static'] = per_call(sf, (x1,), 20000)

def cold(model, x):
    model.eval()
    t = time.perf_counter(); model(x); e = time.perf_counter() - t
    sm = paddle.jit.to_static(model)
    t = time.perf_counter(); sm(x); c = time.perf_counter() - t
    return (c - e) * 1e3, sm

# Inference, as deployed: eval() under no_grad.
for name, model, x, n in (('mlp_b1', MLP(), paddle.randn([1, 64]), 3000), ('lenet_b8', LeNet(), paddle.randn([8, 1, 28, 28]), 200),
                          ('block_b4', Block(), paddle.randn([4, 16, 64]), 300)):
    with paddle.no_grad():
        model.eval()
        eager = per_call(model, (x,), n)
        ms, sm = cold(model, x)
        static = per_call(sm, (x,), n)
        out[name] = {'eager': eager, 'static': static, 'cold_ms': ms, 'same': sm(x).tolist() == model.forward.dygraph_function(x).tolist() if hasattr(model.forward, 'dygraph_function') else None}

# Training steps: forward, cross_entropy, backward, SGD step. Translated, the forward is one
# executor program and the backward its PIR-autodiff program (sot/graph_training.ts).
def train_step(model, opt, x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()

from paddle.vision.models import resnet18
for name, make, x, n in (('mlp_b32', MLP, paddle.randn([32, 64]), 300), ('lenet_b32', LeNet, paddle.randn([32, 1, 28, 28]), 40),
                         ('resnet18_b8', lambda: resnet18(num_classes=10), paddle.randn([8, 3, 32, 32]), 5)):
    y = paddle.randint(0, 10, [x.shape[0]])
    a, b = make(), make()
    b.set_state_dict(a.state_dict())
    sb = paddle.jit.to_static(b)
    oa = paddle.optimizer.SGD(0.01, parameters=a.parameters())
    ob = paddle.optimizer.SGD(0.01, parameters=b.parameters())
    out['train_' + name] = {'eager': per_call(lambda: train_step(a, oa, x, y), (), n),
                            'static': per_call(lambda: train_step(sb, ob, x, y), (), n)}
print('RESULT ' + json.dumps(out))
`;

async function worker(version: string, minGraph: string): Promise<void> {
  // The Python side runs in the shipped build (dist/cli.js, what `skiff run` uses), not through
  // tsx: tsx's transform adds per-closure costs the bundle does not have.
  const dir = mkdtempSync(join(tmpdir(), 'skiff-bench-sot-'));
  const script = join(dir, 'bench_sot.py');
  writeFileSync(script, PY);
  let printed: string;
  try {
    printed = execFileSync(process.execPath, [join(root, 'dist', 'cli.js'), 'run', '--python', version, script],
      { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, MIN_GRAPH_SIZE: minGraph } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const line = printed.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result: ${printed}`);
  // The graph of the lambda alone, run by the executor from TypeScript (to subtract from the call).
  const { compile } = await import('../src/executor/index.js');
  const { GraphBuilder } = await import('../src/executor/index.js');
  const { paddle } = await import('../src/paddle.js');
  void GraphBuilder;
  const x = paddle.to_tensor([1], 'float32');
  const one = paddle.to_tensor([1], 'float32');
  const exe = compile({ values: [{ id: 0, dtype: 'float32', shape: [1] }, { id: 1, dtype: 'float32', shape: [1] }, { id: 2, dtype: 'float32', shape: [1] }],
    inputs: [0, 1], params: [], nodes: [{ op: 'add', inputs: [0, 1], outputs: [2], attrs: {} }], outputs: [2] });
  const runs: number[] = [];
  for (let r = 0; r < 6; r++) {
    const t = performance.now();
    for (let i = 0; i < 20000; i++) exe.run([x, one])[0].dispose();
    if (r) runs.push((performance.now() - t) / 20000 * 1000);
  }
  process.stdout.write(`WORKER ${JSON.stringify({ py: JSON.parse(line.slice(7)), graphRun: median(runs) })}\n`);
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });   // a fresh dist/cli.js
  const res: Record<string, { py: Record<string, any>; graphRun: number }> = {};
  for (const mg of ['0', '10']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker', '3.13', mg], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
    const line = out.split('\n').find((l) => l.startsWith('WORKER '));
    if (!line) throw new Error(`worker printed no result:\n${out}`);
    res[mg] = JSON.parse(line.slice(7));
  }
  const r0 = res['0'], r10 = res['10'];
  const m = (xs: number[]) => median(xs);
  const lam = m(r0.py.lambda_static);
  const rows = [
    ['`to_static(lambda x: x + 1)` cached call, 1-element tensor', `${lam.toFixed(2)} µs`, `graph run alone ${r0.graphRun.toFixed(2)} µs → overhead ${(lam - r0.graphRun).toFixed(2)} µs`, `eager ${m(r0.py.lambda_eager).toFixed(2)} µs`],
  ];
  const models = [['mlp_b1', 'MLP 64-128-128-10, batch 1'], ['lenet_b8', 'LeNet-5, batch 8'], ['block_b4', 'transformer block d=64, [4, 16, 64]']];
  const rows2 = models.map(([k, label]) => {
    const a = r0.py[k], b = r10.py[k];
    return [label, m(a.eager).toFixed(1), m(a.static).toFixed(1), `${(m(a.eager) / m(a.static)).toFixed(2)}x`, m(b.static).toFixed(1), `${(m(b.eager) / m(b.static)).toFixed(2)}x`, a.cold_ms.toFixed(1)];
  });
  const train = [['train_mlp_b32', 'MLP 64-128-128-10, batch 32'], ['train_lenet_b32', 'LeNet-5, batch 32'], ['train_resnet18_b8', 'ResNet-18 (zoo), batch 8, 3x32x32']].map(([k, label]) => {
    const a = r0.py[k];
    return [label, m(a.eager).toFixed(1), m(a.static).toFixed(1), `${(m(a.eager) / m(a.static)).toFixed(2)}x`];
  });
  const body = [
    'Python 3.13 (Pyodide 0.29.5) in the shipped build (`dist/cli.js run`), µs per call, median of 5 runs; eager and translated measured in the same process.',
    'MIN_GRAPH_SIZE=0 captures every graph; the default 10 (Paddle\'s) runs smaller graphs op by op. Models run in eval() under paddle.no_grad() (inference).',
    '',
    table(['case', 'translated', 'breakdown', 'reference'], rows),
    '',
    table(['model', 'eager µs', 'to_static µs (MIN_GRAPH_SIZE=0)', 'speedup', 'to_static µs (default 10)', 'speedup', 'cold translation ms'], rows2),
    '',
    'Training step (forward, cross_entropy, backward, SGD step; MIN_GRAPH_SIZE=0): translated, the forward runs as one executor program and the backward as its PIR-autodiff backward program.',
    '',
    table(['model', 'eager µs/step', 'to_static µs/step', 'speedup'], train),
  ].join('\n');
  writeSection('to_static (SOT) from Python', body);
  console.log(body);
}

if (process.argv[2] === '--worker') await worker(process.argv[3], process.argv[4]);
else await main();
