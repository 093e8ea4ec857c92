// Attributes and methods of tensors while tracing: metadata is known from the graph's
// infer-meta, registry methods are recorded as ops, value reads break.
import { GraphBreak, userRaise } from '../../../sot/graph_breaks.js';
import { HostError } from '../../../sot/host.js';
import { ConstVar, TensorVar, BoundMethodVar, type Variable } from '../../../sot/variables.js';
import { allOps } from '../../../src/ops/registry.js';
import type { OpDef } from '../../../src/ops/types.js';
import type { Translator } from './translator.js';
import { callApi, recordOp, tensorResults } from './semantics.js';
import { tensorGetItem } from './tensor_index.js';
import { functionalizeInplace } from './inplace.js';
import { shapeList, sizeInt } from './symint.js';

let methodTable: Map<string, OpDef> | null = null;
/** Tensor method name -> registry op (the same table compat's Tensor methods come from). */
function methods(): Map<string, OpDef> {
  if (!methodTable) {
    methodTable = new Map();
    for (const d of allOps()) for (const m of d.api?.methods ?? (d.api?.names ? [] : [d.name])) methodTable.set(m, d);
  }
  return methodTable;
}

export function tensorAttr(tx: Translator, t: TensorVar, name: string): Variable {
  const s = t.sym;
  switch (name) {
    // symbolic dims give symbolic ints (symint.ts)
    case 'shape': return shapeList(t);
    case 'ndim': return new ConstVar({ k: 'int', v: s.shape.length });
    case 'size': return sizeInt(t);
    case 'stop_gradient': return new ConstVar({ k: 'bool', v: s.stop_gradient });
    case 'dtype': return tx.objectVar(tx.host.dtypeObject(s.dtype), null);
    case 'T': {
      const n = s.shape.length;
      return tensorResults(recordOp(tx, 'transpose', [s], { perm: [...Array(n).keys()].reverse() }));
    }
    case 'is_leaf': case 'grad': case 'place': case 'name': case 'persistable':
      throw new GraphBreak('SOT007', `tensor attribute '${name}'`);
    default:
      // only names the Tensor class has (hasattr(t, 'x') must be False, t.x an AttributeError)
      if (!tensorClassHas(tx, name)) throw userRaise('SOT007', `AttributeError: 'Tensor' object has no attribute '${name}'`);
      return new BoundMethodVar(t, name);
  }
}

/** Names the compat Tensor class defines (methods and properties), asked once per name. */
const TENSOR_NAMES = new WeakMap<object, Map<string, boolean>>();
function tensorClassHas(tx: Translator, name: string): boolean {
  let known = TENSOR_NAMES.get(tx.host);
  if (!known) TENSOR_NAMES.set(tx.host, (known = new Map()));
  let has = known.get(name);
  if (has === undefined) {
    try {
      tx.host.getattr({ k: 'obj', ref: tx.host.tensorTypeRef() }, name);
      has = true;
    } catch (e) {
      if (!(e instanceof HostError)) throw e;
      has = false;
    }
    known.set(name, has);
  }
  return has;
}

export function tensorMethodCall(tx: Translator, t: TensorVar, name: string, args: Variable[], kwargs: [string, Variable][]): Variable | undefined {
  switch (name) {
    case 'numpy': case '__array__': throw new GraphBreak('SOT003', 'Tensor.numpy()');
    case 'detach': {
      if (args.length || kwargs.length) break;
      try { return new TensorVar(tx.graph.detach(t.sym), null); } catch (e) { throw new GraphBreak('SOT007', `Tensor.detach(): ${(e as Error).message}`); }
    }
    case 'item': case 'tolist': case '__float__': case '__int__': case '__bool__': case '__index__':
      throw new GraphBreak('SOT002', `Tensor.${name}()`);
    case 'dim': case 'ndimension': return new ConstVar({ k: 'int', v: t.sym.shape.length });
    case 'astype': case 'cast': return callApi(tx, 'cast', [t, ...args], kwargs);
    case '__getitem__': return tensorGetItem(tx, t, args[0]);
    default: break;
  }
  const def = methods().get(name);
  if (def) return callApi(tx, def.name, [t, ...args], kwargs);
  // x.op_(...): the registry op's inplace variant, functionalized
  const base = name.endsWith('_') ? methods().get(name.slice(0, -1)) : undefined;
  if (base?.inplace) return functionalizeInplace(tx, base.name, [t, ...args], kwargs);
  throw new GraphBreak('SOT007', `Tensor.${name}()`);
}
