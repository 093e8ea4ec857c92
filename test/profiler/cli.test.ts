// `skiff run --profile` / `--profile-trace`, paddle.profiler from Python, `skiff graph` (html,
// dot, svg) and paddle.jit.sot.show on LeNet, end to end through bin/skiff.js. Structure and
// counts only, never timings. The browser check runs only where Debian's `chromium` and
// playwright-core are installed (it never downloads a browser).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkXml, parseDot } from './xml_check.js';
import { browserMissing, withPage } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fx = (f: string) => join(here, 'fixtures', f);

function skiff(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [join(root, 'bin', 'skiff.js'), ...args], { cwd, env: process.env });
    let out = '', err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The rows of one summary section: name -> the cells after it. */
function section(text: string, title: string): Map<string, string[]> {
  const lines = text.split('\n');
  const at = lines.indexOf(`${title}:`);
  expect(at, `section ${title}`).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  for (const l of lines.slice(at + 3)) {
    if (!l.trim() || l.endsWith(':')) break;
    const [name, ...cells] = l.trim().split(/\s{2,}/);
    rows.set(name, cells);
  }
  return rows;
}

interface TraceEvent { ph: string; name: string; cat?: string; ts?: number; dur?: number; args?: { ops?: number } }

describe('skiff run --profile', () => {
  it('prints the per-op table and writes a Chrome trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skiff-prof-'));
    const trace = join(dir, 'trace.json');
    const r = await skiff(['run', '--profile', '--profile-trace', trace, fx('prof_small.py')], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('done\n');
    const ops = section(r.err, 'Eager ops');
    expect(ops.get('matmul')?.[0]).toBe('3');        // calls
    expect(ops.get('exp')?.[0]).toBe('1');
    const graphs = section(r.err, 'Captured graphs');
    const [gname, gcells] = [...graphs].find(([n]) => n.startsWith('f#'))!;
    expect(gname).toBe('f#1');
    expect(Number(gcells[0])).toBeGreaterThanOrEqual(10);   // op count of the graph
    expect(gcells[1]).toBe('3');                             // runs
    expect(section(r.err, 'Translation').get('f')?.[0]).toBe('1');
    expect(section(r.err, 'User events').get('my_scope')?.[0]).toBe('1');
    expect(r.err).toMatch(/op\s+calls\s+total ms\s+mean µs\s+share %/);

    const tr = JSON.parse(readFileSync(trace, 'utf8')) as { traceEvents: TraceEvent[]; displayTimeUnit: string };
    expect(tr.displayTimeUnit).toBe('ms');
    const x = tr.traceEvents.filter((e) => e.ph === 'X');
    for (const e of x) { expect(typeof e.ts).toBe('number'); expect(e.dur).toBeGreaterThanOrEqual(0); }
    expect(x.filter((e) => e.cat === 'op' && e.name === 'matmul')).toHaveLength(3);
    const g = x.filter((e) => e.cat === 'graph');
    expect(g).toHaveLength(3);
    expect(g.every((e) => e.name === 'f#1' && e.args?.ops === Number(gcells[0]))).toBe(true);
    expect(x.filter((e) => e.cat === 'translate').map((e) => e.name)).toEqual(['f']);
    expect(x.filter((e) => e.cat === 'user').map((e) => e.name)).toEqual(['my_scope']);
  }, 120_000);

  it('paddle.profiler from Python', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skiff-prof-'));
    const r = await skiff(['run', fx('prof_api.py')], dir);
    expect(r.code, r.err).toBe(0);
    const res = JSON.parse(r.out.trim().split('\n').pop()!);
    expect(res).toEqual({
      ready: [2], exp_calls: [2], user: [['outer', 1]], has_table: true, trace_ops: ['exp', 'exp'],
      states: ['CLOSED', 'READY', 'RECORD', 'RECORD_AND_RETURN', 'CLOSED'],
    });
  }, 120_000);
});

describe('paddle.profiler on the zoo', () => {
  it('profiles eager ops and the captured graph of each zoo model (LeNet, ResNet-18, MobileNetV2, VGG-11, BERT-tiny, GPT-mini)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skiff-prof-'));
    const r = await skiff(['run', fx('zoo_profile.py')], dir);
    expect(r.code, r.err).toBe(0);
    const res = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, { eager_ops: string[]; graphs: [string, number, number][]; translations: number[] }>;
    const want: Record<string, { ops: string[]; graph: string }> = {
      lenet: { ops: ['conv2d', 'max_pool2d', 'matmul'], graph: 'LeNet.forward#1' },
      resnet18: { ops: ['conv2d', 'batch_norm', 'adaptive_avg_pool2d'], graph: 'ResNet.forward#1' },
      mobilenet_v2: { ops: ['conv2d', 'relu6'], graph: 'MobileNetV2.forward#1' },
      vgg11: { ops: ['conv2d', 'max_pool2d'], graph: 'VGG.forward#1' },
      bert_tiny: { ops: ['embedding', 'layer_norm', 'scaled_dot_product_attention'], graph: 'BertModel.forward#1' },
      gpt_mini: { ops: ['embedding', 'layer_norm', 'tril'], graph: 'GPTForCausalLM.forward#1' },
    };
    expect(Object.keys(res)).toEqual(Object.keys(want));
    for (const [name, w] of Object.entries(want)) {
      const got = res[name];
      for (const op of w.ops) expect(got.eager_ops, `${name} eager ${op}`).toContain(op);
      // One graph per model, run by both static calls, with the model's ops in it; one translation.
      expect(got.graphs.map(([g, , calls]) => [g, calls]), name).toEqual([[w.graph, 2]]);
      expect(got.graphs[0][1], `${name} graph ops`).toBeGreaterThan(10);
      expect(got.translations, name).toEqual([1]);
    }
  }, 180_000);
});

describe('skiff graph and paddle.jit.sot.show (LeNet)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-graph-'));
  const html = join(dir, 'lenet.html');
  let ran: Promise<{ code: number | null; out: string; err: string }> | null = null;
  const runHtml = () => (ran ??= skiff(['graph', '-o', html, fx('lenet_graph.py')], dir));

  it('writes one self-contained HTML page with the ops, breaks and valid SVG', async () => {
    const r = await runHtml();
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/1 translated function, 3 graphs written to/);
    const page = readFileSync(html, 'utf8');
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const op of ['conv2d', 'max_pool2d', 'relu', 'flatten', 'matmul', 'softmax', 'greater_than', 'multiply'])
      expect(page, op).toContain(`data-search="${op} `);
    expect(page).toContain('data-search="x float32[2, 1, 28, 28]"');   // the entry input, named
    expect(page.match(/class="node param"/g)!.length).toBe(10);         // LeNet's 10 parameters
    const breaks = [...page.matchAll(/class="break" id="[^"]+" data-code="(\w+)" data-line="(\d+)"/g)].map((m) => [m[1], Number(m[2])]);
    expect(breaks).toEqual([['SOT004', 14], ['SOT001', 16]]);
    expect(page).toContain("print(&#39;logits&#39;, y.shape)");        // the user's source line
    const svgs = page.match(/<svg class="viewport"[\s\S]*?<\/svg>/g)!;
    expect(svgs).toHaveLength(3);
    for (const s of svgs) expect(checkXml(s)[0]).toBe('svg');
    // paddle.jit.sot.show wrote the same kind of page next to the script's working directory.
    expect(r.out).toContain('show: lenet_show.html');
    const shown = readFileSync(join(dir, 'lenet_show.html'), 'utf8');
    expect(shown).toContain('data-search="conv2d ');
    expect(shown.match(/class="break"/g)).toHaveLength(2);
  }, 120_000);

  it('--format dot parses line by line; --format svg is one well-formed SVG', async () => {
    const [d, s] = await Promise.all([
      skiff(['graph', '--format', 'dot', '-o', join(dir, 'l.dot'), fx('lenet_graph.py')], dir),
      skiff(['graph', '--format', 'svg', '-o', join(dir, 'l.svg'), fx('lenet_graph.py')], dir),
    ]);
    expect(d.code, d.err).toBe(0);
    expect(s.code, s.err).toBe(0);
    const dot = readFileSync(join(dir, 'l.dot'), 'utf8');
    const parsed = parseDot(dot);
    expect([...parsed.nodes].filter((n) => n.includes('_break')).length).toBe(2);
    expect(dot).toContain('label="conv2d\\nfloat32[2, 6, 28, 28]"');
    const svg = readFileSync(join(dir, 'l.svg'), 'utf8');
    expect(checkXml(svg)[0]).toBe('svg');
    expect(svg).toContain('graph break SOT001');
    const bad = await skiff(['graph', '--format', 'png', fx('lenet_graph.py')], dir);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("--format must be one of html, dot, svg, got 'png'");
  }, 120_000);

  it.skipIf(!!browserMissing)(`loads in a real browser${browserMissing ? ` — SKIPPED: ${browserMissing}` : ''}`, async () => {
    const r = await runHtml();
    expect(r.code, r.err).toBe(0);
    await withPage(async (page, errors) => {
      await page.goto(pathToFileURL(html).href);
      expect(await page.evaluate('document.querySelectorAll("g.node.op").length')).toBeGreaterThan(15);
      expect(await page.evaluate('window.skiffViewer.viewports')).toBe(3);
      expect(await page.evaluate('window.skiffViewer.search("conv2d")')).toBe(2);
      await page.evaluate('window.skiffViewer.next()');
      // The break links point at the user's lines (print, then the branch on a tensor).
      expect(await page.evaluate('[...document.querySelectorAll(".break a")].map((a) => a.textContent).filter((t) => /:\\d+$/.test(t))')).toEqual(
        [expect.stringMatching(/lenet_graph\.py:14$/), expect.stringMatching(/lenet_graph\.py:16$/)]);
      await page.screenshot({ path: join(dir, 'viewer.png') });
      expect(existsSync(join(dir, 'viewer.png'))).toBe(true);
      expect(errors).toEqual([]);
    });
  }, 120_000);
});

