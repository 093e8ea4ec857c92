// The graph viewer in a real browser on the zoo: each model's inference program (captured as
// paddle.jit.save does, passes applied) drawn as one page, loaded in headless Debian chromium.
// Checks what a user looks for — the model's ops with shapes, fused kernels marked, if/while
// regions as nested boxes, search that finds and steps, wheel zoom and drag pan that move the
// view — and that the page raises no errors. ResNet-50 is the size check (hundreds of nodes).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture, disposeModel } from '../../src/jit/save.js';
import { InputSpec } from '../../src/jit/index.js';
import type { Layer } from '../../src/nn/index.js';
import type { Program } from '../../src/pir/index.js';
import { showProgram } from '../../src/viz/index.js';
import { mobilenet_v2, resnet50 } from '../../models/vision/index.js';
import { gpt_mini } from '../../models/text/index.js';
import { controlFlowProgram } from './programs.js';
import { browserMissing, withPage } from './browser.js';

interface Case {
  name: string;
  program: () => Program;
  /** Op labels the page must show. */
  ops: string[];
  minNodes: number;
  fused?: boolean;
  regions?: boolean;
}

function inferenceProgram(make: () => Layer, spec: InputSpec[]): Program {
  const m = capture(make(), { input_spec: spec });
  disposeModel(m);   // the program keeps names only; the page needs no parameter values
  return m.program;
}

const CASES: Case[] = [
  { name: 'resnet50', program: () => inferenceProgram(() => resnet50(), [new InputSpec([null, 3, 224, 224], 'float32', 'x')]),
    // The residual add + relu of each block is fused into the conv (fuse_conv_act's residual rules).
    ops: ['fused_conv2d_add_act', 'conv2d', 'max_pool2d', 'adaptive_avg_pool2d'], minNodes: 150, fused: true },
  { name: 'mobilenet_v2', program: () => inferenceProgram(() => mobilenet_v2({ num_classes: 10 }), [new InputSpec([null, 3, 64, 64], 'float32', 'x')]),
    ops: ['fused_conv2d_add_act', 'conv2d'], minNodes: 80, fused: true },
  { name: 'gpt_mini', program: () => inferenceProgram(() => gpt_mini({ vocab_size: 512, num_hidden_layers: 2 }), [new InputSpec([1, 16], 'int64', 'ids')]),
    ops: ['embedding', 'fused_bias_residual_layernorm', 'scaled_dot_product_attention'], minNodes: 30 },
  { name: 'control flow', program: controlFlowProgram, ops: ['if', 'while', 'exp', 'multiply'], minNodes: 10, regions: true },
];

describe.skipIf(!!browserMissing)(`graph viewer in Debian chromium (zoo)${browserMissing ? ` — SKIPPED: ${browserMissing}` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'skiff-viewer-'));
  for (const c of CASES) {
    it(c.name, async () => {
      const html = showProgram(c.program(), 'html', c.name);
      await withPage(async (page, errors) => {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.setContent(html, { waitUntil: 'load' });
        const labels = (await page.evaluate('[...document.querySelectorAll("g.node")].map((n) => n.dataset.search.split(" ")[0])')) as string[];
        expect(labels.length).toBeGreaterThanOrEqual(c.minNodes);
        for (const op of c.ops) expect(labels, op).toContain(op);
        if (c.fused) expect(await page.evaluate('document.querySelectorAll("g.node.fused").length')).toBeGreaterThan(0);
        if (c.regions) {
          // then/else of the if and the while body are drawn inside their op's box.
          expect(await page.evaluate('[...document.querySelectorAll("g.node.region")].map((g) => g.querySelectorAll(".subregion").length)')).toEqual([2, 1]);
        }
        // Search highlights and steps through matches.
        const want = labels.filter((l) => l === c.ops[0]).length;
        expect(await page.evaluate(`window.skiffViewer.search(${JSON.stringify(c.ops[0])})`)).toBeGreaterThanOrEqual(want);
        await page.evaluate('window.skiffViewer.next()');
        expect(await page.evaluate('document.querySelectorAll("g.node.cur").length')).toBe(1);
        // Wheel zoom at the cursor changes the viewport's scale; the page stays scriptable.
        const before = await page.evaluate('document.querySelector("g.vp").getAttribute("transform")');
        await page.evaluate('document.querySelector("svg.viewport").scrollIntoView()');
        const box = (await page.evaluate('(() => { const r = document.querySelector("svg.viewport").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()')) as number[];
        await page.mouse.move(box[0], box[1]);
        await page.mouse.wheel(0, -400);
        const after = (await page.evaluate('document.querySelector("g.vp").getAttribute("transform")')) as string;
        expect(after).not.toBe(before);
        expect(Number(/scale\(([\d.]+)\)/.exec(after)![1])).toBeGreaterThan(Number(/scale\(([\d.]+)\)/.exec(before as string)?.[1] ?? 0));
        await page.screenshot({ path: join(dir, `${c.name.replace(/\W/g, '_')}.png`) });
        expect(errors).toEqual([]);
      });
    }, 120_000);
  }
});
