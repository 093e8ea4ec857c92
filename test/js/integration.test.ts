// Integration of the JS frontend with the build plugin's contract (helper calls, own scope
// accessors), the text zoo's default position_ids path, and paddle.jit.sot.show / explain
// (the graph viewer shared with the Python frontend).
import { describe, expect, test } from 'vitest';
import { paddle as P } from '../../frontend/index.js';
import { scopeRecord } from '../../frontend/js/guards.js';
import { GPTModel, GPTEmbeddings, GPTForCausalLM } from '../../models/text/gpt.js';
import { causalMask, positionIds, positions } from '../../models/text/positions.js';
import * as bert from '../../models/text/bert.js';
import { attachScope, expectSame } from './helpers.js';

const paddle: any = P;   // eslint-disable-line @typescript-eslint/no-explicit-any
const t = (shape: number[], seed = 1): any => { paddle.seed(seed); return paddle.randn(shape); };   // eslint-disable-line @typescript-eslint/no-explicit-any

/** Stands in for the plugin's `__skiffScope` helper: marked, returns its first argument. */
function helper<F>(f: F, _names: string[], _get: () => unknown): F { return f; }
Object.defineProperty(helper, Symbol.for('skiff.scope.helper'), { value: 'scope' });
function unmarked<F>(f: F, _names: string[], _get: () => unknown): F { return f; }

describe('plugin contract', () => {
  test('a call of a marked helper is its first argument; the plumbing is not evaluated', () => {
    // `notDefinedAnywhere` would be SOT107 if the names array were evaluated.
    // @ts-expect-error: deliberately undeclared
    const f = (x: any) => [0, 1, 2].map(helper((i: number) => paddle.scale(x, i + 1), [notDefinedAnywhere], () => ({}))).reduce((a: any, b: any) => paddle.add(a, b));   // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = paddle.jit.to_static(f, { scope: { paddle, helper } });
    const x = t([2, 3]);
    expectSame(s(x), paddle.scale(x, 6), 1e-6);
    expect(s.explain().breaks).toEqual([]);
    expect(s.explain().graphs).toBe(1);
  });

  test('an unmarked function of the same shape is inlined as usual (its arguments evaluated)', () => {
    // @ts-expect-error: deliberately undeclared
    const f = (x: any) => unmarked((y: any) => paddle.scale(y, 2), [notDefinedAnywhere], () => ({}))(x);   // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = paddle.jit.to_static(f, { scope: { paddle, unmarked } });
    const x = t([2]);
    expect(() => s(x)).toThrow(/notDefinedAnywhere/);   // eager raises the ReferenceError too
    expect(s.stats.breaks.map((b: any) => b.code)).toEqual(['SOT107']);   // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  test('scopeRecord reads only an own accessor, never a parent class\'s', () => {
    class Parent {}
    class Child extends Parent {}
    Object.defineProperty(Parent, Symbol.for('skiff.scope'), { value: () => ({ a: 1 }) });
    expect(scopeRecord(Parent)).toEqual({ a: 1 });
    expect(Object.getOwnPropertySymbols(Child)).toEqual([]);
    expect(scopeRecord(Child)).toBeUndefined();
  });
});

describe('text zoo: default position_ids', () => {
  const T = (v: unknown) => v;
  const ids = () => paddle.to_tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], 'int64');
  const scopePositions = () => {
    attachScope(positionIds, { paddle, T, positions });
    attachScope(positions, { paddle, T });
    attachScope(causalMask, { paddle, T, positions });
  };
  const cases: [string, () => any][] = [   // eslint-disable-line @typescript-eslint/no-explicit-any
    ['GPT-mini', () => {
      for (const c of [GPTModel, GPTEmbeddings, GPTForCausalLM]) attachScope(c, { paddle, T, causalMask, positionIds });
      return new GPTForCausalLM(new GPTModel({ vocab_size: 50, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32, max_position_embeddings: 16 }));
    }],
    ['BERT-tiny', () => {
      for (const c of Object.values(bert)) if (typeof c === 'function' && c.prototype) attachScope(c, { paddle, T, positionIds });
      return bert.bert_tiny({ vocab_size: 40 } as any);   // eslint-disable-line @typescript-eslint/no-explicit-any
    }],
  ];
  test.each(cases)('%s without position_ids: one graph equal to eager', (_name, make) => {
    scopePositions();
    const m = make();
    m.eval();
    const s = paddle.jit.to_static(m);
    expectSame(s.call(ids()), m.call(ids()), 1e-5);
    const ex = s.explain();
    expect(ex.breaks).toEqual([]);
    expect(ex.graphs).toBe(1);
    s.call(ids());
    expect(s.translateCount).toBe(1);
  });
});

class Net extends paddle.nn.Layer {
  fc1 = new paddle.nn.Linear(784, 256);
  fc2 = new paddle.nn.Linear(256, 10);
  forward(x: any) {   // eslint-disable-line @typescript-eslint/no-explicit-any
    let h = paddle.nn.functional.relu(this.fc1.forward(x));
    if (this.training) h = paddle.nn.functional.dropout(h, 0.1);
    return this.fc2.forward(h);
  }
}

describe('paddle.jit.sot.show / explain for JS', () => {
  test('show renders the README Net: its ops, parameters and the input name', () => {
    attachScope(Net, { paddle });
    const net = new Net();
    net.eval();
    const html: string = paddle.jit.sot.show(net, t([2, 784]));
    expect(html.startsWith('<!DOCTYPE html>') || html.startsWith('<!doctype html>')).toBe(true);
    for (const op of ['matmul', 'relu', 'fc1.weight', 'fc2.bias', '>x<']) expect(html).toContain(op);
    expect(html).not.toContain('dropout');
    const dot: string = paddle.jit.sot.render('dot', net, t([2, 784]));
    expect((dot.match(/label="(matmul|add|relu)/g) ?? []).length).toBeGreaterThanOrEqual(3);
  });

  test('a to_static result keeps its cache; a break is shown with its code and line', () => {
    const f = (x: any) => paddle.scale(x, Date.now() > 0 ? 2 : 3);   // eslint-disable-line @typescript-eslint/no-explicit-any
    const s = paddle.jit.to_static(f, { scope: { paddle } });
    const ex = paddle.jit.sot.explain(s, t([2]));
    expect(ex.graphs).toBe(0);
    expect(ex.breaks[0].code).toBe('SOT005');
    const html: string = paddle.jit.sot.show(s, t([2]));
    expect(html).toContain('SOT005');
    expect(s.translateCount).toBe(1);   // the second call hit the eager entry
  });

  test('bad input is named', () => {
    expect(() => paddle.jit.sot.show(42)).toThrow(/expected a function, a paddle.nn.Layer/);
    expect(() => paddle.jit.sot.render('png', (x: any) => x, 1)).toThrow(/format must be one of/);   // eslint-disable-line @typescript-eslint/no-explicit-any
  });
});
