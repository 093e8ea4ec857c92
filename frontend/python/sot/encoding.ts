// The tagged text form values take across the Python <-> TypeScript boundary of the translator
// and the trace tree. One short string per crossing: no proxies, and Python types survive
// (2, 2.0 and True stay apart). compat/paddle/jit/sot/runtime.py speaks the same grammar:
//
//   value := 't' INT ';'   a tensor handle (the bridge's handle table)
//          | 'i' INT ';'   an int (any size)        | 'f' FLOAT ';' a float (Python repr)
//          | 'b0' | 'b1'   a bool                   | 'n'           None
//          | 's' LEN ':' CHARS                      a str of LEN UTF-16 code units
//          | 'o' ID ';'    a host object by id      | '(' value* ')' a tuple
//          | 'L' ID ';' '[' value* ']'              a list and its identity
//          | 'D' ID ';' '{' (value value)* '}'      a dict and its identity
//          | 'N' ID ';' DTYPE ';' value              a numpy scalar: its dtype and number
//          | 'A' ID ';' DTYPE ';' value              a numpy array: its dtype and storage tensor
// (numpy values go back to Python as 'o' ID: Python has the object)
import type { Tensor } from '../../../src/tensor/tensor.js';
import type { HostRef, RtValue } from '../../../sot/values.js';

export interface Codec {
  tensor(handle: number): Tensor;
  handleOf(t: Tensor): number;
  object(id: number): HostRef;
}

export function decodeValue(text: string, codec: Codec): RtValue {
  const r = { s: text, i: 0 };
  const v = read(r, codec);
  if (r.i !== text.length) throw new Error(`sot encoding: trailing text at ${r.i} in ${JSON.stringify(text.slice(0, 80))}`);
  return v;
}

/** Decodes a sequence of values (e.g. a call's arguments). */
export function decodeValues(text: string, codec: Codec): RtValue[] {
  const r = { s: text, i: 0 };
  const out: RtValue[] = [];
  while (r.i < text.length) out.push(read(r, codec));
  return out;
}

function until(r: { s: string; i: number }, ch: string): string {
  const j = r.s.indexOf(ch, r.i);
  if (j < 0) throw new Error(`sot encoding: missing '${ch}' after ${r.i}`);
  const out = r.s.slice(r.i, j);
  r.i = j + 1;
  return out;
}

function parseInt_(s: string): number | bigint {
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : BigInt(s);
}

function parseFloat_(s: string): number {
  if (s === 'inf') return Infinity;
  if (s === '-inf') return -Infinity;
  if (s === 'nan') return NaN;
  return Number(s);
}

function read(r: { s: string; i: number }, codec: Codec): RtValue {
  const c = r.s[r.i++];
  switch (c) {
    case 't': return { k: 'tensor', t: codec.tensor(Number(until(r, ';'))) };
    case 'i': return { k: 'int', v: parseInt_(until(r, ';')) };
    case 'f': return { k: 'float', v: parseFloat_(until(r, ';')) };
    case 'b': return { k: 'bool', v: r.s[r.i++] === '1' };
    case 'n': return { k: 'none' };
    case 's': {
      const len = Number(until(r, ':'));
      const v = r.s.slice(r.i, r.i + len);
      r.i += len;
      return { k: 'str', v };
    }
    case 'o': return { k: 'obj', ref: codec.object(Number(until(r, ';'))) };
    case 'N': case 'A': {
      const ref = codec.object(Number(until(r, ';')));
      const dtype = until(r, ';');
      const inner = read(r, codec);
      if (c === 'A' && inner.k === 'tensor') return { k: 'obj', ref, np: { kind: 'array', dtype, t: inner.t } };
      if (c === 'N' && (inner.k === 'int' || inner.k === 'float' || inner.k === 'bool')) return { k: 'obj', ref, np: { kind: 'scalar', dtype, value: inner } };
      throw new Error(`sot encoding: bad numpy value body at ${r.i}`);
    }
    case '(': {
      const items: RtValue[] = [];
      while (r.s[r.i] !== ')') items.push(read(r, codec));
      r.i++;
      return { k: 'tuple', items };
    }
    case 'L': {
      const ref = codec.object(Number(until(r, ';')));
      if (r.s[r.i++] !== '[') throw new Error('sot encoding: list body expected');
      const items: RtValue[] = [];
      while (r.s[r.i] !== ']') items.push(read(r, codec));
      r.i++;
      return { k: 'list', items, ref };
    }
    case '[': {
      const items: RtValue[] = [];
      while (r.s[r.i] !== ']') items.push(read(r, codec));
      r.i++;
      return { k: 'list', items };
    }
    case 'D': {
      const ref = codec.object(Number(until(r, ';')));
      if (r.s[r.i++] !== '{') throw new Error('sot encoding: dict body expected');
      const keys: RtValue[] = [], values: RtValue[] = [];
      while (r.s[r.i] !== '}') { keys.push(read(r, codec)); values.push(read(r, codec)); }
      r.i++;
      return { k: 'dict', keys, values, ref };
    }
    default: throw new Error(`sot encoding: bad tag '${c}' at ${r.i - 1}`);
  }
}

function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0.0';
  return String(v);
}

export function encodeValue(v: RtValue, codec: Codec): string {
  switch (v.k) {
    case 'tensor': return `t${codec.handleOf(v.t)};`;
    case 'int': return `i${v.v};`;
    case 'float': return `f${formatFloat(v.v)};`;
    case 'bool': return v.v ? 'b1' : 'b0';
    case 'none': return 'n';
    case 'str': return `s${v.v.length}:${v.v}`;
    case 'obj': return `o${v.ref.id as number};`;
    case 'tuple': return `(${v.items.map((x) => encodeValue(x, codec)).join('')})`;
    case 'list': return v.ref ? `L${v.ref.id as number};[${v.items.map((x) => encodeValue(x, codec)).join('')}]` : `[${v.items.map((x) => encodeValue(x, codec)).join('')}]`;
    case 'dict': {
      const body = v.keys.map((k, i) => encodeValue(k, codec) + encodeValue(v.values[i], codec)).join('');
      return v.ref ? `D${v.ref.id as number};{${body}}` : `D0;{${body}}`;
    }
  }
}
