// MultiHeadAttention and the Transformer stack (encoder/decoder layers, encoder, decoder,
// Transformer) with Paddle 2.6's constructors, sublayer names (self_attn.q_proj, linear1, norm1,
// ...) and forward semantics: post-norm unless normalize_before, masks additive (float) or
// boolean/integer (false/0 = masked, turned into -1e9 as Paddle's _convert_attention_mask).
import { callOp } from '../ops/api.js';
import { getOp } from '../ops/registry.js';
import type { TensorLike } from '../ops/dispatch.js';
import type { Tensor } from '../tensor/tensor.js';
import { Layer, type ParamAttrLike } from './layer.js';
import { Dropout, Linear } from './layers_common.js';
import { LayerNorm } from './layers_norm.js';
import { LayerList } from './container.js';

const op = (name: string, args: unknown[]): TensorLike => callOp(getOp(name), args) as TensorLike;
const shapeOf = (t: TensorLike): number[] => [...(t as Tensor).shape] as number[];
const dtypeOf = (t: TensorLike): string => (t as Tensor).dtype;

/** Paddle's _convert_attention_mask: bool/int masks become (mask - 1) * 1e9 in `dtype`; float masks are added as they are. */
export function convertAttentionMask(mask: TensorLike | null | undefined, dtype: string): TensorLike | null {
  if (mask === null || mask === undefined) return null;
  const dt = dtypeOf(mask);
  if (dt === 'bool' || dt.startsWith('int') || dt === 'uint8')
    return op('scale', [op('cast', [mask, dtype]), { scale: 1e9, bias: -1, bias_after_scale: false }]);
  return mask;
}

let fused: boolean | null = null;
/** Whether the registry has the fused attention op (added alongside these layers). */
function fusedAttention(): boolean {
  if (fused === null) { try { getOp('scaled_dot_product_attention'); fused = true; } catch { fused = false; } }
  return fused;
}

/** Paddle's _convert_param_attr_to_list: one attr for every sublayer group, or a list of exactly n. */
function attrList(who: string, attr: ParamAttrLike | ParamAttrLike[], n: number): ParamAttrLike[] {
  if (!Array.isArray(attr)) return new Array<ParamAttrLike>(n).fill(attr);
  if (attr.length === 1) return new Array<ParamAttrLike>(n).fill(attr[0]);
  if (attr.length !== n) throw new RangeError(`${who}: a list of param attrs must have length 1 or ${n}, got ${attr.length}`);
  return [...attr];
}

function checkActivation(who: string, activation: string): void {
  try { getOp(activation); } catch { throw new RangeError(`${who}: unknown activation '${activation}'`); }
}

/** MultiHeadAttention.Cache: keys and values [B, heads, L, head_dim] that grow with every decoding step. */
export class AttentionCache {
  constructor(readonly k: TensorLike, readonly v: TensorLike) {}
}
/** MultiHeadAttention.StaticCache: keys and values of a fixed memory, computed once. */
export class StaticCache {
  constructor(readonly k: TensorLike, readonly v: TensorLike) {}
}


/**
 * A leading dim for reshape: its size, or 0 ("copy the input's dim", as Paddle's own
 * MultiHeadAttention writes it) when it is symbolic, so a traced program keeps a dynamic
 * batch / length (paddle.jit.save, paddle.onnx.export with InputSpec None dims).
 */
const keepDim = (d: unknown): number => (typeof d === 'number' ? d : 0);
/**
 * MultiHeadAttention(embed_dim, num_heads, dropout=0., kdim=None, vdim=None, need_weights=False, weight_attr=None, bias_attr=None):
 * q_proj/k_proj/v_proj/out_proj Linears. forward(query, key=None, value=None, attn_mask=None, cache=None)
 * → out [B, Lq, embed_dim], or [out, weights [B, heads, Lq, Lk]] with need_weights.
 * Runs the fused scaled_dot_product_attention op unless the attention probabilities are needed
 * (need_weights) or dropped out (dropout in training): then matmul + softmax + dropout + matmul.
 */
export class MultiHeadAttention extends Layer {
  readonly kdim: number;
  readonly vdim: number;
  readonly head_dim: number;
  q_proj: Linear;
  k_proj: Linear;
  v_proj: Linear;
  out_proj: Linear;
  constructor(readonly embed_dim: number, readonly num_heads: number, readonly dropout = 0, kdim: number | null = null, vdim: number | null = null,
    readonly need_weights = false, weight_attr: ParamAttrLike = null, bias_attr: ParamAttrLike = null) {
    super();
    if (!Number.isInteger(embed_dim) || embed_dim <= 0) throw new RangeError(`MultiHeadAttention: embed_dim must be a positive integer, got ${embed_dim}`);
    if (!Number.isInteger(num_heads) || num_heads <= 0 || embed_dim % num_heads)
      throw new RangeError(`MultiHeadAttention: embed_dim ${embed_dim} must be divisible by num_heads ${num_heads}`);
    if (!(dropout >= 0 && dropout <= 1)) throw new RangeError(`MultiHeadAttention: dropout must be in [0, 1], got ${dropout}`);
    this.kdim = kdim ?? embed_dim;
    this.vdim = vdim ?? embed_dim;
    this.head_dim = embed_dim / num_heads;
    this.q_proj = new Linear(embed_dim, embed_dim, weight_attr, bias_attr);
    this.k_proj = new Linear(this.kdim, embed_dim, weight_attr, bias_attr);
    this.v_proj = new Linear(this.vdim, embed_dim, weight_attr, bias_attr);
    this.out_proj = new Linear(embed_dim, embed_dim, weight_attr, bias_attr);
  }

  /** [B, L, E] → [B, heads, L, head_dim]. */
  private heads(x: TensorLike): TensorLike {
    const [b, l] = shapeOf(x);
    return op('transpose', [op('reshape', [x, [keepDim(b), keepDim(l), this.num_heads, this.head_dim]]), [0, 2, 1, 3]]);
  }

  /** Keys and values projected and split into heads: [B, heads, L, head_dim] each. */
  compute_kv(key: TensorLike, value: TensorLike): [TensorLike, TensorLike] {
    this.checkKV(key, value);
    return [this.heads(this.k_proj.call(key)), this.heads(this.v_proj.call(value))];
  }

  /**
   * gen_cache(key, value=None, type=Cache): StaticCache holds compute_kv(key, value) (cross
   * attention over a fixed memory); Cache starts empty ([B, heads, 0, head_dim]) and grows by the
   * new keys/values at every call (incremental decoding), or wraps given (key, value) heads.
   */
  gen_cache(key: TensorLike, value: TensorLike | null = null, type: typeof AttentionCache | typeof StaticCache = AttentionCache): AttentionCache | StaticCache {
    if (type === StaticCache) return new StaticCache(...this.compute_kv(key, value ?? key));
    if (value === null || value === undefined) {
      const z = op('full', [[shapeOf(key)[0], this.num_heads, 0, this.head_dim], 0, dtypeOf(key)]);
      return new AttentionCache(z, z);
    }
    return new AttentionCache(key, value);
  }

  static Cache = (null as unknown) as typeof AttentionCache;
  static StaticCache = (null as unknown) as typeof StaticCache;

  /** forward(query, key=None, value=None, attn_mask=None, cache=None) → out, plus weights (need_weights) and the new cache (cache given), as Paddle's tuple. */
  override forward(query: TensorLike, key: TensorLike | null = null, value: TensorLike | null = null, attn_mask: TensorLike | null = null,
    cache: AttentionCache | StaticCache | null = null): TensorLike | (TensorLike | AttentionCache | StaticCache)[] {
    key ??= query;
    value ??= query;
    const qs = shapeOf(query);
    if (qs.length !== 3 || qs[2] !== this.embed_dim) throw new RangeError(`MultiHeadAttention: query must be [batch, len, ${this.embed_dim}], got [${qs.join(', ')}]`);
    if (cache !== null && cache !== undefined && !(cache instanceof AttentionCache) && !(cache instanceof StaticCache))
      throw new TypeError('MultiHeadAttention: cache must be a MultiHeadAttention.Cache or StaticCache (see gen_cache)');
    if (!(cache instanceof StaticCache) && shapeOf(key)[0] !== qs[0]) throw new RangeError(`MultiHeadAttention: key batch ${shapeOf(key)[0]} does not match query batch ${qs[0]}`);
    const qp = this.q_proj.call(query);
    const mask = convertAttentionMask(attn_mask, dtypeOf(qp));
    if (!cache && !this.need_weights && (!this.dropout || !this.training) && fusedAttention()) {
      // The fused kernel takes [batch, len, heads, head_dim] as it is: no transposes, no [Lq, Lk] matrix.
      this.checkKV(key, value);
      const [kp, vp] = [this.k_proj.call(key), this.v_proj.call(value)];
      const split = (t: TensorLike) => { const [b, l] = shapeOf(t); return op('reshape', [t, [keepDim(b), keepDim(l), this.num_heads, this.head_dim]]); };
      const o = op('scaled_dot_product_attention', [split(qp), split(kp), split(vp), mask, { dropout_p: 0, is_causal: false, training: false }]);
      return this.out_proj.call(op('reshape', [o, [keepDim(qs[0]), keepDim(qs[1]), this.embed_dim]]));
    }
    const q = this.heads(qp);
    let [k, v] = cache instanceof StaticCache ? [cache.k, cache.v] : this.compute_kv(key, value);
    if (cache instanceof AttentionCache) {
      k = op('concat', [[cache.k, k], 2]);
      v = op('concat', [[cache.v, v], 2]);
      cache = new AttentionCache(k, v);
    }
    let product = op('matmul', [op('scale', [q, { scale: this.head_dim ** -0.5 }]), k, { transpose_y: true }]);
    if (mask !== null) product = op('add', [product, mask]);
    let weights = op('softmax', [product, -1]);
    if (this.dropout) weights = op('dropout', [weights, { p: this.dropout, training: this.training, mode: 'upscale_in_train' }]);
    const o = op('transpose', [op('matmul', [weights, v]), [0, 2, 1, 3]]);
    const out = this.out_proj.call(op('reshape', [o, [keepDim(qs[0]), keepDim(qs[1]), this.embed_dim]]));
    const outs: (TensorLike | AttentionCache | StaticCache)[] = [out];
    if (this.need_weights) outs.push(weights);
    if (cache) outs.push(cache);
    return outs.length === 1 ? out : outs;
  }

  private checkKV(key: TensorLike, value: TensorLike): void {
    const [ks, vs] = [shapeOf(key), shapeOf(value)];
    if (ks.length !== 3 || ks[2] !== this.kdim) throw new RangeError(`MultiHeadAttention: key must be [batch, len, ${this.kdim}], got [${ks.join(', ')}]`);
    if (vs.length !== 3 || vs[2] !== this.vdim || vs[0] !== ks[0] || vs[1] !== ks[1])
      throw new RangeError(`MultiHeadAttention: value must be [${ks[0]}, ${ks[1]}, ${this.vdim}], got [${vs.join(', ')}]`);
  }
  override extra_repr(): string { return `embed_dim=${this.embed_dim}, num_heads=${this.num_heads}, dropout=${this.dropout}`; }
}
MultiHeadAttention.Cache = AttentionCache;
MultiHeadAttention.StaticCache = StaticCache;

type Attrs = ParamAttrLike | ParamAttrLike[];

/**
 * TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout=0.1, activation='relu', attn_dropout=None,
 * act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5).
 */
export class TransformerEncoderLayer extends Layer {
  readonly _config: unknown[];
  self_attn: MultiHeadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  norm1: LayerNorm;
  norm2: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  constructor(d_model: number, nhead: number, dim_feedforward: number, dropout = 0.1, readonly activation = 'relu', attn_dropout: number | null = null,
    act_dropout: number | null = null, readonly normalize_before = false, weight_attr: Attrs = null, bias_attr: Attrs = null, layer_norm_eps = 1e-5) {
    super();
    this._config = [d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps];
    checkActivation('TransformerEncoderLayer', activation);
    const w = attrList('TransformerEncoderLayer', weight_attr, 2), b = attrList('TransformerEncoderLayer', bias_attr, 2);
    this.self_attn = new MultiHeadAttention(d_model, nhead, attn_dropout ?? dropout, null, null, false, w[0], b[0]);
    this.linear1 = new Linear(d_model, dim_feedforward, w[1], b[1]);
    this.dropout = new Dropout(act_dropout ?? dropout, null, 'upscale_in_train');
    this.linear2 = new Linear(dim_feedforward, d_model, w[1], b[1]);
    this.norm1 = new LayerNorm(d_model, layer_norm_eps);
    this.norm2 = new LayerNorm(d_model, layer_norm_eps);
    this.dropout1 = new Dropout(dropout, null, 'upscale_in_train');
    this.dropout2 = new Dropout(dropout, null, 'upscale_in_train');
  }
  /** forward(src, src_mask=None, cache=None) → out, or [out, new cache] when a cache (gen_cache) is given. */
  override forward(src: TensorLike, src_mask: TensorLike | null = null, cache: AttentionCache | null = null): TensorLike | [TensorLike, AttentionCache] {
    const mask = convertAttentionMask(src_mask, dtypeOf(src));
    const nb = this.normalize_before;
    let residual = src;
    let x = nb ? this.norm1.call(src) : src;
    let attn: TensorLike, next: AttentionCache | null = null;
    if (cache) [attn, next] = this.self_attn.call(x, x, x, mask, cache) as [TensorLike, AttentionCache];
    else attn = this.self_attn.call(x, x, x, mask);
    x = op('add', [residual, this.dropout1.call(attn)]);
    if (!nb) x = this.norm1.call(x);
    residual = x;
    if (nb) x = this.norm2.call(x);
    x = this.linear2.call(this.dropout.call(op(this.activation, [this.linear1.call(x)])));
    x = op('add', [residual, this.dropout2.call(x)]);
    if (!nb) x = this.norm2.call(x);
    return next ? [x, next] : x;
  }
  /** An empty incremental cache for self-attention over `src`'s batch. */
  gen_cache(src: TensorLike): AttentionCache { return this.self_attn.gen_cache(src) as AttentionCache; }
}

/** Clones a layer the way Paddle does: a fresh instance from the first one's constructor arguments (new parameters). */
function clones<L extends Layer & { _config: unknown[] }>(first: L, n: number): LayerList {
  const ctor = first.constructor as new (...a: unknown[]) => L;
  return new LayerList(Array.from({ length: n }, (_, i) => (i === 0 ? first : new ctor(...first._config))));
}

/** TransformerEncoder(encoder_layer, num_layers, norm=None): layers.0 is encoder_layer, the others fresh copies of its configuration. */
export class TransformerEncoder extends Layer {
  layers: LayerList;
  norm: LayerNorm | null;
  constructor(encoder_layer: TransformerEncoderLayer, readonly num_layers: number, norm: LayerNorm | null = null) {
    super();
    if (!Number.isInteger(num_layers) || num_layers <= 0) throw new RangeError(`TransformerEncoder: num_layers must be a positive integer, got ${num_layers}`);
    this.layers = clones(encoder_layer, num_layers);
    this.norm = norm;
  }
  /** forward(src, src_mask=None, cache=None): with a cache (one per layer, gen_cache) → [out, new caches]. */
  override forward(src: TensorLike, src_mask: TensorLike | null = null, cache: AttentionCache[] | null = null): TensorLike | [TensorLike, AttentionCache[]] {
    const mask = convertAttentionMask(src_mask, dtypeOf(src));
    if (cache && cache.length !== this.layers.length) throw new RangeError(`TransformerEncoder: cache must hold ${this.layers.length} entries, got ${cache.length}`);
    let x = src;
    const next: AttentionCache[] = [];
    [...this.layers].forEach((l, i) => {
      if (!cache) { x = l.call(x, mask); return; }
      const [y, c] = l.call(x, mask, cache[i]);
      x = y;
      next.push(c);
    });
    if (this.norm) x = this.norm.call(x);
    return cache ? [x, next] : x;
  }
  gen_cache(src: TensorLike): AttentionCache[] { return [...this.layers].map((l) => (l as TransformerEncoderLayer).gen_cache(src)); }
}

/**
 * TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout=0.1, activation='relu', attn_dropout=None,
 * act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5).
 */
export class TransformerDecoderLayer extends Layer {
  readonly _config: unknown[];
  self_attn: MultiHeadAttention;
  cross_attn: MultiHeadAttention;
  linear1: Linear;
  dropout: Dropout;
  linear2: Linear;
  norm1: LayerNorm;
  norm2: LayerNorm;
  norm3: LayerNorm;
  dropout1: Dropout;
  dropout2: Dropout;
  dropout3: Dropout;
  constructor(d_model: number, nhead: number, dim_feedforward: number, dropout = 0.1, readonly activation = 'relu', attn_dropout: number | null = null,
    act_dropout: number | null = null, readonly normalize_before = false, weight_attr: Attrs = null, bias_attr: Attrs = null, layer_norm_eps = 1e-5) {
    super();
    this._config = [d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, weight_attr, bias_attr, layer_norm_eps];
    checkActivation('TransformerDecoderLayer', activation);
    const w = attrList('TransformerDecoderLayer', weight_attr, 3), b = attrList('TransformerDecoderLayer', bias_attr, 3);
    const ad = attn_dropout ?? dropout;
    this.self_attn = new MultiHeadAttention(d_model, nhead, ad, null, null, false, w[0], b[0]);
    this.cross_attn = new MultiHeadAttention(d_model, nhead, ad, null, null, false, w[1], b[1]);
    this.linear1 = new Linear(d_model, dim_feedforward, w[2], b[2]);
    this.dropout = new Dropout(act_dropout ?? dropout, null, 'upscale_in_train');
    this.linear2 = new Linear(dim_feedforward, d_model, w[2], b[2]);
    this.norm1 = new LayerNorm(d_model, layer_norm_eps);
    this.norm2 = new LayerNorm(d_model, layer_norm_eps);
    this.norm3 = new LayerNorm(d_model, layer_norm_eps);
    this.dropout1 = new Dropout(dropout, null, 'upscale_in_train');
    this.dropout2 = new Dropout(dropout, null, 'upscale_in_train');
    this.dropout3 = new Dropout(dropout, null, 'upscale_in_train');
  }
  /** forward(tgt, memory, tgt_mask=None, memory_mask=None, cache=None): cache = [incremental, static] (gen_cache) → [out, new cache]. */
  override forward(tgt: TensorLike, memory: TensorLike, tgt_mask: TensorLike | null = null, memory_mask: TensorLike | null = null,
    cache: [AttentionCache, StaticCache] | null = null): TensorLike | [TensorLike, [AttentionCache, StaticCache]] {
    const tm = convertAttentionMask(tgt_mask, dtypeOf(tgt)), mm = convertAttentionMask(memory_mask, dtypeOf(memory));
    if (cache && (!Array.isArray(cache) || cache.length !== 2)) throw new TypeError('TransformerDecoderLayer: cache must be [incremental Cache, StaticCache] (see gen_cache)');
    const nb = this.normalize_before;
    let residual = tgt;
    let x = nb ? this.norm1.call(tgt) : tgt;
    let attn: TensorLike, inc: AttentionCache | null = null;
    if (cache) [attn, inc] = this.self_attn.call(x, x, x, tm, cache[0]) as [TensorLike, AttentionCache];
    else attn = this.self_attn.call(x, x, x, tm);
    x = op('add', [residual, this.dropout1.call(attn)]);
    if (!nb) x = this.norm1.call(x);
    residual = x;
    if (nb) x = this.norm2.call(x);
    const cross = cache ? (this.cross_attn.call(x, memory, memory, mm, cache[1]) as TensorLike[])[0] : this.cross_attn.call(x, memory, memory, mm);
    x = op('add', [residual, this.dropout2.call(cross)]);
    if (!nb) x = this.norm2.call(x);
    residual = x;
    if (nb) x = this.norm3.call(x);
    x = this.linear2.call(this.dropout.call(op(this.activation, [this.linear1.call(x)])));
    x = op('add', [residual, this.dropout3.call(x)]);
    if (!nb) x = this.norm3.call(x);
    return cache ? [x, [inc!, cache[1]]] : x;
  }
  /** [an empty incremental cache for self-attention, the static keys/values of memory for cross-attention]. */
  gen_cache(memory: TensorLike): [AttentionCache, StaticCache] {
    return [this.self_attn.gen_cache(memory) as AttentionCache, this.cross_attn.gen_cache(memory, memory, StaticCache) as StaticCache];
  }
}

/** TransformerDecoder(decoder_layer, num_layers, norm=None). */
export class TransformerDecoder extends Layer {
  layers: LayerList;
  norm: LayerNorm | null;
  constructor(decoder_layer: TransformerDecoderLayer, readonly num_layers: number, norm: LayerNorm | null = null) {
    super();
    if (!Number.isInteger(num_layers) || num_layers <= 0) throw new RangeError(`TransformerDecoder: num_layers must be a positive integer, got ${num_layers}`);
    this.layers = clones(decoder_layer, num_layers);
    this.norm = norm;
  }
  /** forward(tgt, memory, tgt_mask=None, memory_mask=None, cache=None): with a cache (one per layer, gen_cache) → [out, new caches]. */
  override forward(tgt: TensorLike, memory: TensorLike, tgt_mask: TensorLike | null = null, memory_mask: TensorLike | null = null,
    cache: [AttentionCache, StaticCache][] | null = null): TensorLike | [TensorLike, [AttentionCache, StaticCache][]] {
    const tm = convertAttentionMask(tgt_mask, dtypeOf(tgt)), mm = convertAttentionMask(memory_mask, dtypeOf(memory));
    if (cache && cache.length !== this.layers.length) throw new RangeError(`TransformerDecoder: cache must hold ${this.layers.length} entries, got ${cache.length}`);
    let x = tgt;
    const next: [AttentionCache, StaticCache][] = [];
    [...this.layers].forEach((l, i) => {
      if (!cache) { x = l.call(x, memory, tm, mm); return; }
      const [y, c] = l.call(x, memory, tm, mm, cache[i]);
      x = y;
      next.push(c);
    });
    if (this.norm) x = this.norm.call(x);
    return cache ? [x, next] : x;
  }
  /** One [incremental, static] cache per layer; do_zip regroups them as [all incremental, all static]. */
  gen_cache(memory: TensorLike, do_zip = false): unknown[] {
    const c = [...this.layers].map((l) => (l as TransformerDecoderLayer).gen_cache(memory));
    return do_zip ? [c.map((p) => p[0]), c.map((p) => p[1])] : c;
  }
}

/** Splits Transformer's weight_attr/bias_attr into the encoder's (2) and decoder's (3) lists, as Paddle does. */
function splitAttrs(attr: Attrs): [Attrs, Attrs] {
  if (!Array.isArray(attr)) return [attr, attr];
  if (attr.length === 1) return [[attr[0], attr[0]], [attr[0], attr[0], attr[0]]];
  if (attr.length === 2) return [attr, [attr[0], attr[0], attr[1]]];
  if (attr.length === 3) return [[attr[0], attr[2]], attr];
  throw new RangeError(`Transformer: weight_attr/bias_attr lists must have length 1, 2 or 3, got ${attr.length}`);
}

/**
 * Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048, dropout=0.1,
 * activation='relu', attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
 * custom_encoder=None, custom_decoder=None): encoder and decoder each end in a LayerNorm (encoder.norm, decoder.norm).
 */
export class Transformer extends Layer {
  encoder: Layer;
  decoder: Layer;
  constructor(readonly d_model = 512, readonly nhead = 8, num_encoder_layers = 6, num_decoder_layers = 6, dim_feedforward = 2048, dropout = 0.1,
    activation = 'relu', attn_dropout: number | null = null, act_dropout: number | null = null, normalize_before = false, weight_attr: Attrs = null,
    bias_attr: Attrs = null, custom_encoder: Layer | null = null, custom_decoder: Layer | null = null) {
    super();
    const [ew, dw] = splitAttrs(weight_attr), [eb, db] = splitAttrs(bias_attr);
    this.encoder = custom_encoder ?? new TransformerEncoder(
      new TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, ew, eb),
      num_encoder_layers, new LayerNorm(d_model));
    this.decoder = custom_decoder ?? new TransformerDecoder(
      new TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout, act_dropout, normalize_before, dw, db),
      num_decoder_layers, new LayerNorm(d_model));
  }
  override forward(src: TensorLike, tgt: TensorLike, src_mask: TensorLike | null = null, tgt_mask: TensorLike | null = null, memory_mask: TensorLike | null = null): TensorLike {
    const memory = this.encoder.call(src, convertAttentionMask(src_mask, dtypeOf(src)));
    return this.decoder.call(tgt, memory, convertAttentionMask(tgt_mask, dtypeOf(tgt)), convertAttentionMask(memory_mask, dtypeOf(memory)));
  }
  /** A [length, length] float mask: 0 on and below the diagonal, -inf above (causal attention). */
  generate_square_subsequent_mask(length: number): TensorLike {
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`generate_square_subsequent_mask: length must be a non-negative integer, got ${length}`);
    return op('triu', [op('full', [[length, length], -Infinity, 'float32']), 1]);
  }
}
