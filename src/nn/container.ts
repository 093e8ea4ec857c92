// Sequential, LayerList and LayerDict: children named by position or key, as in Paddle.
import { Layer } from './layer.js';

export class Sequential extends Layer {
  private readonly _items: [string, Layer][];
  /** new Sequential(a, b, c) or new Sequential(['conv', a], ['relu', b]). */
  constructor(...layers: (Layer | [string, Layer])[]) {
    super();
    this._items = layers.map((l, i) => (l instanceof Layer ? [String(i), l] : [l[0], l[1]]));
  }
  override named_children(): [string, Layer][] { return [...this._items]; }
  get length(): number { return this._items.length; }
  at(i: number): Layer {
    const j = i < 0 ? i + this._items.length : i;
    if (j < 0 || j >= this._items.length) throw new RangeError(`Sequential: index ${i} out of range for ${this._items.length} layers`);
    return this._items[j][1];
  }
  override forward(x: unknown): unknown {
    let y = x;
    for (const [, l] of this._items) y = l.call(y);
    return y;
  }
}

export class LayerList extends Layer {
  private readonly _items: Layer[] = [];
  constructor(sublayers: Iterable<Layer> = []) {
    super();
    for (const l of sublayers) this.append(l);
  }
  override named_children(): [string, Layer][] { return this._items.map((l, i) => [String(i), l]); }
  append(l: Layer): this {
    if (!(l instanceof Layer)) throw new TypeError('LayerList.append: expected a Layer');
    this._items.push(l);
    return this;
  }
  extend(ls: Iterable<Layer>): this { for (const l of ls) this.append(l); return this; }
  insert(index: number, l: Layer): void { this._items.splice(index, 0, l); }
  get length(): number { return this._items.length; }
  at(i: number): Layer {
    const j = i < 0 ? i + this._items.length : i;
    if (j < 0 || j >= this._items.length) throw new RangeError(`LayerList: index ${i} out of range for ${this._items.length} layers`);
    return this._items[j];
  }
  [Symbol.iterator](): Iterator<Layer> { return this._items[Symbol.iterator](); }
}

export class LayerDict extends Layer {
  private readonly _items = new Map<string, Layer>();
  constructor(sublayers: Record<string, Layer> | Iterable<[string, Layer]> = {}) {
    super();
    const entries = Symbol.iterator in Object(sublayers) ? (sublayers as Iterable<[string, Layer]>) : Object.entries(sublayers);
    for (const [k, l] of entries) this.set(k, l);
  }
  override named_children(): [string, Layer][] { return [...this._items]; }
  set(key: string, l: Layer): void { this._items.set(key, l); }
  get(key: string): Layer {
    const l = this._items.get(key);
    if (!l) throw new RangeError(`LayerDict: no layer '${key}'`);
    return l;
  }
  has(key: string): boolean { return this._items.has(key); }
  delete(key: string): boolean { return this._items.delete(key); }
  keys(): string[] { return [...this._items.keys()]; }
  get length(): number { return this._items.size; }
}
