// The JS side of paddle.jit.save / load and paddle.inference in Python: the `_skiff_jit` module.
// Python traces the forward with paddle.static (compat/paddle/jit/_save.py) and hands the feed
// and output value ids here; the model (src/jit) comes back as text and parameter bytes, which
// Python writes itself (its paths live in the Pyodide file system). Loading goes the other way:
// Python reads both files and passes their contents with their names (for error messages).
// Like the other bridge modules, entries return 0 on failure and Python asks last_error().
import { buildInferenceModel, disposeModel, type InferenceModel, modelText } from '../../src/jit/save.js';
import { encodePdiparams } from '../../src/jit/pdiparams.js';
import { modelFromBytes, TranslatedLayer } from '../../src/jit/load.js';
import { importPdmodel } from '../../src/jit/pdmodel/import.js';
import { currentProgram } from '../../src/static/index.js';
import { untracked } from '../../src/tensor/tensor.js';
import type { Bridge } from './bridge.js';
import { pyErrorOf } from './errors.js';
import { staticValues } from './static.js';

const SEP = '\u0001';

interface PyBuffer { getBuffer(type?: string): { data: ArrayBufferView; release(): void } }

/** The object registered as the Python module `_skiff_jit`. */
export function jitModule(bridge: Bridge): Record<string, unknown> {
  const models = new Map<number, InferenceModel>();
  const layers = new Map<number, TranslatedLayer>();
  let next = 1;
  let lastError: unknown = null;
  const guarded = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R | 0 => {
    try { return f(...a); } catch (e) { lastError = e; return 0; }
  };
  const ids = (spec: string) => (spec === '' ? [] : spec.split(',').map((i) => staticValues.get(Number(i))));
  const model = (id: number): InferenceModel => {
    const m = models.get(id);
    if (!m) throw new Error(`skiff bridge: invalid saved-model id ${id}`);
    return m;
  };
  const layer = (id: number): TranslatedLayer => {
    const l = layers.get(id);
    if (!l) throw new Error(`skiff bridge: invalid loaded-model id ${id}`);
    return l;
  };

  return {
    /** Builds the inference model of the program being built (inside program_guard): feeds and outputs as value ids. */
    capture: guarded((feeds: string, outputs: string) => {
      const m = buildInferenceModel(currentProgram(), ids(feeds), ids(outputs));
      models.set(next, m);
      return next++;
    }),
    model_text: guarded((id: number) => modelText(model(id))),
    model_params: guarded((id: number) => encodePdiparams(model(id).params)),
    model_free: (id: number) => { const m = models.get(id); if (m) { models.delete(id); disposeModel(m); } },
    /** Loads a model from its text and parameter bytes; returns an id. */
    load: guarded((text: string, params: PyBuffer, file: string, pfile: string) => {
      const view = params.getBuffer('u8');
      try {
        const bytes = new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.byteLength).slice();
        const l = new TranslatedLayer(modelFromBytes(text, bytes, file, pfile), file);
        layers.set(next, l);
        return next++;
      } finally { view.release(); }
    }),
    /** Loads a Paddle .pdmodel (ProgramDesc bytes) with its .pdiparams bytes (src/jit/pdmodel); returns an id. */
    load_pdmodel: guarded((program: PyBuffer, params: PyBuffer, file: string, pfile: string) => {
      const copy = (b: PyBuffer): Uint8Array => {
        const view = b.getBuffer('u8');
        try { return new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.byteLength).slice(); } finally { view.release(); }
      };
      const l = new TranslatedLayer(importPdmodel(copy(program), copy(params), file, pfile), file);
      layers.set(next, l);
      return next++;
    }),
    /** The header as JSON (inputs, outputs, params with dtypes and shapes). */
    header: guarded((id: number) => JSON.stringify(layer(id).header)),
    /** Runs a loaded model on tensor handles; returns the output handles 'h1,h2'. */
    run: guarded((id: number, ...handles: number[]) => {
      const outs = untracked(() => layer(id).run(handles.map((h) => bridge.handles.get(h))));
      return outs.map((t) => bridge.handles.add(t)).join(',');
    }),
    plan_count: guarded((id: number) => layer(id).planCount),
    free: (id: number) => { const l = layers.get(id); if (l) { layers.delete(id); l.dispose(); } },
    last_error: (): string => {
      const { kind, message } = pyErrorOf(lastError);
      lastError = null;
      return `${kind}${SEP}${message}`;
    },
  };
}
