"""A Vision Transformer with PaddleClas's structure and parameter names (patch_embed.proj,
pos_embed, cls_token, blocks.0.norm1, blocks.0.attn.qkv, blocks.0.attn.proj, blocks.0.norm2,
blocks.0.mlp.fc1, blocks.0.mlp.fc2, norm, head), so PaddleClas ViT state dicts load by name.
Paddle 2.6's paddle.vision.models has no ViT; this one is Skiff's, written from Linear,
LayerNorm and softmax (multi-head attention with one fused qkv projection, as PaddleClas).
TypeScript twin: models/vision/vit.ts."""
import paddle

from ... import nn
from ...nn import functional as F
from ...nn import initializer as I
from ...framework import ParamAttr
from ._utils import no_pretrained

__all__ = ['VisionTransformer', 'PatchEmbed', 'Attention', 'Mlp', 'Block', 'DropPath', 'vit_tiny', 'vit_small', 'vit_base']


def _trunc():
    return ParamAttr(initializer=I.TruncatedNormal(std=0.02))


def _linear(i, o, bias=True):
    """PaddleClas's init: truncated normal (std 0.02) weights, zero biases."""
    return nn.Linear(i, o, weight_attr=_trunc(), bias_attr=None if bias else False)


class DropPath(nn.Layer):
    """Stochastic depth: drops a whole sample's residual branch with probability drop_prob (training only)."""

    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        if self.drop_prob == 0.0 or not self.training:
            return x
        keep = 1.0 - self.drop_prob
        mask = (paddle.rand([x.shape[0]] + [1] * (x.ndim - 1), dtype=x.dtype) < keep).astype(x.dtype)
        return x / keep * mask


class Mlp(nn.Layer):
    def __init__(self, in_features, hidden_features=None, out_features=None, drop=0.0):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = _linear(in_features, hidden_features)
        self.act = nn.GELU()
        self.fc2 = _linear(hidden_features, out_features)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


class Attention(nn.Layer):
    """Multi-head self-attention: one qkv Linear, softmax(q k^T * scale) v per head, then proj."""

    def __init__(self, dim, num_heads=8, qkv_bias=False, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        if dim % num_heads:
            raise ValueError('Attention: dim %d must be divisible by num_heads %d' % (dim, num_heads))
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim ** -0.5
        self.qkv = _linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = _linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        n, c = x.shape[1], x.shape[2]
        qkv = self.qkv(x).reshape([-1, n, 3, self.num_heads, c // self.num_heads]).transpose([2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.softmax(q.matmul(k, transpose_y=True) * self.scale, axis=-1)
        attn = self.attn_drop(attn)
        x = attn.matmul(v).transpose([0, 2, 1, 3]).reshape([-1, n, c])
        return self.proj_drop(self.proj(x))


class Block(nn.Layer):
    """Pre-norm encoder block: x + attn(norm1(x)), then x + mlp(norm2(x))."""

    def __init__(self, dim, num_heads, mlp_ratio=4.0, qkv_bias=False, qk_scale=None, drop=0.0, attn_drop=0.0,
                 drop_path=0.0, epsilon=1e-5):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, epsilon=epsilon)
        self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias, qk_scale=qk_scale, attn_drop=attn_drop, proj_drop=drop)
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
        self.norm2 = nn.LayerNorm(dim, epsilon=epsilon)
        self.mlp = Mlp(in_features=dim, hidden_features=int(dim * mlp_ratio), drop=drop)

    def forward(self, x):
        x = x + self.drop_path(self.attn(self.norm1(x)))
        return x + self.drop_path(self.mlp(self.norm2(x)))


class PatchEmbed(nn.Layer):
    """Non-overlapping patch_size x patch_size patches projected by one strided Conv2D: [N, patches, embed_dim]."""

    def __init__(self, img_size=224, patch_size=16, in_chans=3, embed_dim=768):
        super().__init__()
        if img_size % patch_size:
            raise ValueError('PatchEmbed: img_size %d must be divisible by patch_size %d' % (img_size, patch_size))
        self.img_size, self.patch_size = img_size, patch_size
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2D(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        if x.ndim != 4 or x.shape[2] != self.img_size or x.shape[3] != self.img_size:
            raise ValueError("PatchEmbed: input shape %s doesn't match model image size %d" % (x.shape, self.img_size))
        return self.proj(x).flatten(2).transpose([0, 2, 1])


class VisionTransformer(nn.Layer):
    """VisionTransformer(img_size=224, patch_size=16, in_chans=3, class_num=1000, embed_dim=768, depth=12,
    num_heads=12, mlp_ratio=4, qkv_bias=False, qk_scale=None, drop_rate=0, attn_drop_rate=0,
    drop_path_rate=0, epsilon=1e-5): PaddleClas's arguments; the class token's final state feeds head."""

    def __init__(self, img_size=224, patch_size=16, in_chans=3, class_num=1000, embed_dim=768, depth=12, num_heads=12,
                 mlp_ratio=4.0, qkv_bias=False, qk_scale=None, drop_rate=0.0, attn_drop_rate=0.0, drop_path_rate=0.0,
                 epsilon=1e-5):
        super().__init__()
        self.class_num = class_num
        self.num_features = self.embed_dim = embed_dim
        self.patch_embed = PatchEmbed(img_size=img_size, patch_size=patch_size, in_chans=in_chans, embed_dim=embed_dim)
        num_patches = self.patch_embed.num_patches
        self.pos_embed = self.create_parameter([1, num_patches + 1, embed_dim], default_initializer=I.TruncatedNormal(std=0.02))
        self.cls_token = self.create_parameter([1, 1, embed_dim], default_initializer=I.TruncatedNormal(std=0.02))
        self.pos_drop = nn.Dropout(p=drop_rate)
        dpr = [drop_path_rate * i / max(depth - 1, 1) for i in range(depth)]   # stochastic depth grows linearly
        self.blocks = nn.LayerList([
            Block(embed_dim, num_heads, mlp_ratio, qkv_bias, qk_scale, drop_rate, attn_drop_rate, dpr[i], epsilon)
            for i in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, epsilon=epsilon)
        self.head = _linear(embed_dim, class_num) if class_num > 0 else nn.Identity()

    def forward_features(self, x):
        b = x.shape[0]
        x = self.patch_embed(x)
        if b >= 0:
            cls_tokens = self.cls_token.expand([b, -1, -1])
        else:
            # A symbolic batch (-1 while tracing) would mean "keep dim 1" to expand: broadcast
            # the class token against zeros shaped like one patch row instead (same [N, 1, D]).
            cls_tokens = self.cls_token + paddle.zeros_like(x[:, :1])
        x = paddle.concat([cls_tokens, x], axis=1) + self.pos_embed
        x = self.pos_drop(x)
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x)[:, 0]

    def forward(self, x):
        return self.head(self.forward_features(x))


def vit_tiny(pretrained=False, **kwargs):
    """DeiT-tiny's shape: patch 16, 192 wide, 12 blocks of 3 heads (5.7M parameters)."""
    no_pretrained('vit_tiny', pretrained)
    cfg = dict(patch_size=16, embed_dim=192, depth=12, num_heads=3, mlp_ratio=4, qkv_bias=True, epsilon=1e-6)
    cfg.update(kwargs)
    return VisionTransformer(**cfg)


def vit_small(pretrained=False, **kwargs):
    """PaddleClas's ViT_small_patch16_224: 768 wide, 8 blocks of 8 heads, mlp ratio 3, qk_scale 768^-0.5."""
    no_pretrained('vit_small', pretrained)
    cfg = dict(patch_size=16, embed_dim=768, depth=8, num_heads=8, mlp_ratio=3, qk_scale=768 ** -0.5)
    cfg.update(kwargs)
    return VisionTransformer(**cfg)


def vit_base(pretrained=False, **kwargs):
    """PaddleClas's ViT_base_patch16_224: 768 wide, 12 blocks of 12 heads, qkv bias, epsilon 1e-6."""
    no_pretrained('vit_base', pretrained)
    cfg = dict(patch_size=16, embed_dim=768, depth=12, num_heads=12, mlp_ratio=4, qkv_bias=True, epsilon=1e-6)
    cfg.update(kwargs)
    return VisionTransformer(**cfg)
