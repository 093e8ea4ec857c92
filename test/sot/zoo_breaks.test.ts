// Capture quality of the Python zoo, held in test/sot/zoo_breaks.csv (model, graphs, breaks,
// captured-op share): test/sot/zoo/zoo_breaks.py translates each model and this test fails when
// any row changes — a new break, an extra graph or ops leaking out of graphs is a regression;
// an improvement updates the csv (run with UPDATE_ZOO_BREAKS=1 and review the diff).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const CSV = join(here, 'zoo_breaks.csv');

interface Row { model: string; graphs: number; breaks: string[]; share: number; eager: boolean }

const toCsv = (rows: Row[]): string =>
  ['model,graphs,breaks,captured_op_share', ...rows.map((r) => `${r.model},${r.eager ? 'eager' : r.graphs},${r.breaks.length ? r.breaks.join(' ') : '-'},${r.share.toFixed(3)}`)].join('\n') + '\n';

function run(): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(root, 'bin', 'skiff.js'), 'run', join(here, 'zoo', 'zoo_breaks.py')], { cwd: mkdtempSync(join(tmpdir(), 'skiff-zoo-')) });
    let out = '', err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('zoo capture quality (test/sot/zoo_breaks.csv)', () => {
  it('every Python zoo model translates as recorded: graphs, breaks, captured-op share', async () => {
    const r = await run();
    expect(r.code, r.err).toBe(0);
    const rows = r.out.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Row);
    expect(rows.map((x) => x.model)).toEqual(['lenet', 'resnet18', 'resnet50', 'mobilenet_v2', 'vgg11', 'vit_small', 'bert_tiny', 'gpt_mini', 'lstm_lm']);
    const text = toCsv(rows);
    if (process.env.UPDATE_ZOO_BREAKS) writeFileSync(CSV, text);
    expect(text).toBe(readFileSync(CSV, 'utf8'));
    // The bar: every zoo model is one graph with no break, and on a cached call every op
    // runs inside it.
    for (const x of rows) expect([x.eager, x.graphs, x.breaks, x.share], x.model).toEqual([false, 1, [], 1]);
  }, 300_000);
});
