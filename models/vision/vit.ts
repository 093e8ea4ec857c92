// A Vision Transformer with PaddleClas's structure and parameter names: the TypeScript twin of
// compat/paddle/vision/models/vit.py (patch_embed.proj, pos_embed, cls_token, blocks.0.norm1,
// blocks.0.attn.qkv, ..., norm, head). Multi-head attention is written from Linear, LayerNorm
// and softmax with one fused qkv projection, as PaddleClas does, so its state dicts load.
import { Conv2D, Dropout, GELU, Identity, Layer, LayerList, LayerNorm, Linear, ParamAttr } from '../../src/nn/index.js';
import { TruncatedNormal } from '../../src/nn/initializer.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { noPretrained, T } from './common.js';

const F = paddle.nn.functional;
const trunc = () => new ParamAttr({ initializer: new TruncatedNormal(0, 0.02) });
/** PaddleClas's init: truncated normal (std 0.02) weights, zero biases. */
const linear = (i: number, o: number, bias = true) => new Linear(i, o, trunc(), bias ? null : false);

/** Stochastic depth: drops a whole sample's residual branch with probability drop_prob (training only). */
export class DropPath extends Layer {
  constructor(readonly drop_prob = 0) { super(); }
  override forward(x: Tensor): Tensor {
    if (this.drop_prob === 0 || !this.training) return x;
    const keep = 1 - this.drop_prob;
    const mask = paddle.cast(paddle.less_than(paddle.rand([x.shape[0], ...x.shape.slice(1).map(() => 1)], x.dtype), paddle.full([], keep, x.dtype)), x.dtype);
    return T(paddle.multiply(paddle.scale(x, 1 / keep), mask));
  }
}

export class Mlp extends Layer {
  fc1: Linear; act: Layer; fc2: Linear; drop: Dropout;
  constructor(in_features: number, hidden_features: number | null = null, out_features: number | null = null, drop = 0) {
    super();
    this.fc1 = linear(in_features, hidden_features ?? in_features);
    this.act = new GELU();
    this.fc2 = linear(hidden_features ?? in_features, out_features ?? in_features);
    this.drop = new Dropout(drop);
  }
  override forward(x: Tensor): Tensor {
    return T(this.drop.call(this.fc2.call(this.drop.call(this.act.call(this.fc1.call(x))))));
  }
}

/** Multi-head self-attention: one qkv Linear, softmax(q k^T * scale) v per head, then proj. */
export class Attention extends Layer {
  readonly scale: number;
  qkv: Linear; attn_drop: Dropout; proj: Linear; proj_drop: Dropout;
  constructor(dim: number, readonly num_heads = 8, qkv_bias = false, qk_scale: number | null = null, attn_drop = 0, proj_drop = 0) {
    super();
    if (dim % num_heads) throw new RangeError(`Attention: dim ${dim} must be divisible by num_heads ${num_heads}`);
    this.scale = qk_scale || (dim / num_heads) ** -0.5;
    this.qkv = linear(dim, dim * 3, qkv_bias);
    this.attn_drop = new Dropout(attn_drop);
    this.proj = linear(dim, dim);
    this.proj_drop = new Dropout(proj_drop);
  }
  override forward(x: Tensor): Tensor {
    const [n, c] = [x.shape[1], x.shape[2]];
    const qkv = T(paddle.transpose(paddle.reshape(this.qkv.call(x), [-1, n, 3, this.num_heads, c / this.num_heads]), [2, 0, 3, 1, 4]));
    const [q, k, v] = [0, 1, 2].map((i) => T(qkv.get(i)));
    let attn = T(F.softmax(paddle.scale(paddle.matmul(q, k, { transpose_y: true }), this.scale), { axis: -1 }));
    attn = T(this.attn_drop.call(attn));
    const y = paddle.reshape(paddle.transpose(paddle.matmul(attn, v), [0, 2, 1, 3]), [-1, n, c]);
    return T(this.proj_drop.call(this.proj.call(y)));
  }
}

/** Pre-norm encoder block: x + attn(norm1(x)), then x + mlp(norm2(x)). */
export class Block extends Layer {
  norm1: LayerNorm; attn: Attention; drop_path: Layer; norm2: LayerNorm; mlp: Mlp;
  constructor(dim: number, num_heads: number, mlp_ratio = 4, qkv_bias = false, qk_scale: number | null = null, drop = 0, attn_drop = 0, drop_path = 0, epsilon = 1e-5) {
    super();
    this.norm1 = new LayerNorm(dim, epsilon);
    this.attn = new Attention(dim, num_heads, qkv_bias, qk_scale, attn_drop, drop);
    this.drop_path = drop_path > 0 ? new DropPath(drop_path) : new Identity();
    this.norm2 = new LayerNorm(dim, epsilon);
    this.mlp = new Mlp(dim, Math.trunc(dim * mlp_ratio), null, drop);
  }
  override forward(x: Tensor): Tensor {
    const h = T(paddle.add(x, this.drop_path.call(this.attn.call(this.norm1.call(x)))));
    return T(paddle.add(h, this.drop_path.call(this.mlp.call(this.norm2.call(h)))));
  }
}

/** Non-overlapping patch_size x patch_size patches projected by one strided Conv2D: [N, patches, embed_dim]. */
export class PatchEmbed extends Layer {
  readonly num_patches: number;
  proj: Conv2D;
  constructor(readonly img_size = 224, readonly patch_size = 16, in_chans = 3, embed_dim = 768) {
    super();
    if (img_size % patch_size) throw new RangeError(`PatchEmbed: img_size ${img_size} must be divisible by patch_size ${patch_size}`);
    this.num_patches = (img_size / patch_size) ** 2;
    this.proj = new Conv2D(in_chans, embed_dim, patch_size, patch_size);
  }
  override forward(x: Tensor): Tensor {
    if (x.ndim !== 4 || x.shape[2] !== this.img_size || x.shape[3] !== this.img_size)
      throw new RangeError(`PatchEmbed: input shape [${x.shape.join(', ')}] doesn't match model image size ${this.img_size}`);
    return T(paddle.transpose(paddle.flatten(this.proj.call(x), 2), [0, 2, 1]));
  }
}

export interface ViTOptions {
  img_size?: number; patch_size?: number; in_chans?: number; class_num?: number; embed_dim?: number; depth?: number; num_heads?: number;
  mlp_ratio?: number; qkv_bias?: boolean; qk_scale?: number | null; drop_rate?: number; attn_drop_rate?: number; drop_path_rate?: number; epsilon?: number;
}

/** PaddleClas's VisionTransformer arguments (defaults: ViT-B/16 without qkv bias); the class token's final state feeds head. */
export class VisionTransformer extends Layer {
  readonly class_num: number; readonly embed_dim: number;
  patch_embed: PatchEmbed;
  pos_embed: Tensor;
  cls_token: Tensor;
  pos_drop: Dropout; blocks: LayerList; norm: LayerNorm; head: Layer;
  constructor(o: ViTOptions = {}) {
    super();
    const embed = o.embed_dim ?? 768, depth = o.depth ?? 12, eps = o.epsilon ?? 1e-5, dpr = o.drop_path_rate ?? 0;
    this.class_num = o.class_num ?? 1000;
    this.embed_dim = embed;
    this.patch_embed = new PatchEmbed(o.img_size ?? 224, o.patch_size ?? 16, o.in_chans ?? 3, embed);
    this.pos_embed = this.create_parameter([1, this.patch_embed.num_patches + 1, embed], null, null, false, new TruncatedNormal(0, 0.02))!;
    this.cls_token = this.create_parameter([1, 1, embed], null, null, false, new TruncatedNormal(0, 0.02))!;
    this.pos_drop = new Dropout(o.drop_rate ?? 0);
    const blocks: Layer[] = [];
    for (let i = 0; i < depth; i++) {
      // stochastic depth grows linearly over the blocks
      blocks.push(new Block(embed, o.num_heads ?? 12, o.mlp_ratio ?? 4, o.qkv_bias ?? false, o.qk_scale ?? null, o.drop_rate ?? 0,
        o.attn_drop_rate ?? 0, (dpr * i) / Math.max(depth - 1, 1), eps));
    }
    this.blocks = new LayerList(blocks);
    this.norm = new LayerNorm(embed, eps);
    this.head = this.class_num > 0 ? linear(embed, this.class_num) : new Identity();
  }
  forward_features(x: Tensor): Tensor {
    let h = T(this.patch_embed.call(x));
    // A symbolic batch (a traced program) cannot be an expand size: broadcasting the class
    // token against zeros shaped like one patch row gives the same [N, 1, D].
    const cls = typeof x.shape[0] === 'number' ? paddle.expand(this.cls_token, [x.shape[0], -1, -1])
      : paddle.add(this.cls_token, paddle.zeros_like(T(h.get(':', '0:1'))));
    h = T(this.pos_drop.call(paddle.add(paddle.concat([cls, h], 1), this.pos_embed)));
    for (const blk of this.blocks) h = T(blk.call(h));
    return T(T(this.norm.call(h)).get(':', 0));
  }
  override forward(x: Tensor): Tensor { return T(this.head.call(this.forward_features(x))); }
}

type ViTFactory = ViTOptions & { pretrained?: boolean };
/** DeiT-tiny's shape: patch 16, 192 wide, 12 blocks of 3 heads (5.7M parameters). */
export function vit_tiny(o: ViTFactory = {}): VisionTransformer {
  noPretrained('vit_tiny', o.pretrained);
  return new VisionTransformer({ patch_size: 16, embed_dim: 192, depth: 12, num_heads: 3, mlp_ratio: 4, qkv_bias: true, epsilon: 1e-6, ...o });
}
/** PaddleClas's ViT_small_patch16_224: 768 wide, 8 blocks of 8 heads, mlp ratio 3, qk_scale 768^-0.5. */
export function vit_small(o: ViTFactory = {}): VisionTransformer {
  noPretrained('vit_small', o.pretrained);
  return new VisionTransformer({ patch_size: 16, embed_dim: 768, depth: 8, num_heads: 8, mlp_ratio: 3, qk_scale: 768 ** -0.5, ...o });
}
/** PaddleClas's ViT_base_patch16_224: 768 wide, 12 blocks of 12 heads, qkv bias, epsilon 1e-6. */
export function vit_base(o: ViTFactory = {}): VisionTransformer {
  noPretrained('vit_base', o.pretrained);
  return new VisionTransformer({ patch_size: 16, embed_dim: 768, depth: 12, num_heads: 12, mlp_ratio: 4, qkv_bias: true, epsilon: 1e-6, ...o });
}
