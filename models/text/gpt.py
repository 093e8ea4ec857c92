"""A GPT (decoder-only, causal) with PaddleNLP's GPT parameter names (gpt.embeddings.word_embeddings,
gpt.embeddings.position_embeddings, gpt.decoder.layers.0.self_attn.q_proj, ...linear1,
...norm1, gpt.decoder.norm): pre-norm TransformerEncoderLayers under a causal mask, and an LM
head tied to the word embeddings. gpt_mini() is minGPT's 'gpt-mini' shape (6 layers, 192 wide,
6 heads). TypeScript twin: models/text/gpt.ts."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

from .positions import causal_mask, position_ids as _position_ids


def _normal(std):
    return paddle.ParamAttr(initializer=nn.initializer.Normal(0.0, std))


class GPTEmbeddings(nn.Layer):
    def __init__(self, vocab_size, hidden_size=768, hidden_dropout_prob=0.1, max_position_embeddings=512, initializer_range=0.02):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, weight_attr=_normal(initializer_range))
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size, weight_attr=_normal(initializer_range))
        self.dropout = nn.Dropout(hidden_dropout_prob)
        self.max_position_embeddings = max_position_embeddings

    def forward(self, input_ids, position_ids=None):
        seq = input_ids.shape[1]
        if seq > self.max_position_embeddings:  # -1: symbolic while tracing
            raise ValueError('GPTEmbeddings: sequence length %d exceeds max_position_embeddings %d' % (seq, self.max_position_embeddings))
        if position_ids is None:
            position_ids = _position_ids(input_ids)
        return self.dropout(self.word_embeddings(input_ids) + self.position_embeddings(position_ids))


class GPTModel(nn.Layer):
    """forward(input_ids, position_ids=None) -> final hidden states [N, S, H]; position i sees positions <= i only."""

    def __init__(self, vocab_size, hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
                 hidden_act='gelu', hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1, max_position_embeddings=512,
                 initializer_range=0.02, layer_norm_eps=1e-5):
        super().__init__()
        self.embeddings = GPTEmbeddings(vocab_size, hidden_size, hidden_dropout_prob, max_position_embeddings, initializer_range)
        layer = nn.TransformerEncoderLayer(hidden_size, num_attention_heads, intermediate_size, dropout=hidden_dropout_prob,
                                           activation=hidden_act, attn_dropout=attention_probs_dropout_prob, act_dropout=0,
                                           normalize_before=True, weight_attr=_normal(initializer_range), layer_norm_eps=layer_norm_eps)
        self.decoder = nn.TransformerEncoder(layer, num_hidden_layers, norm=nn.LayerNorm(hidden_size, epsilon=layer_norm_eps))

    def forward(self, input_ids, position_ids=None):
        if input_ids.ndim != 2:
            raise ValueError('GPTModel: input_ids must be [batch, seq], got shape %s' % input_ids.shape)
        # lower-triangular keep-mask (True = attend): the layers turn False into -1e9
        causal = causal_mask(input_ids)
        return self.decoder(self.embeddings(input_ids, position_ids), causal)


class GPTForCausalLM(nn.Layer):
    """gpt + an LM head tied to gpt.embeddings.word_embeddings: forward -> logits [N, S, vocab]."""

    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, input_ids, position_ids=None):
        h = self.gpt(input_ids, position_ids)
        return paddle.matmul(h, self.gpt.embeddings.word_embeddings.weight, transpose_y=True)


def causal_lm_loss(logits, input_ids):
    """Mean next-token cross-entropy: logits at position i predict token i + 1."""
    v = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape([-1, v]), input_ids[:, 1:].reshape([-1]))


def gpt_mini(vocab_size=50257, max_position_embeddings=1024, **kwargs):
    """minGPT's 'gpt-mini': 6 layers, 192 wide, 6 heads, FFN 768; returns GPTForCausalLM."""
    cfg = dict(hidden_size=192, num_hidden_layers=6, num_attention_heads=6, intermediate_size=768)
    cfg.update(kwargs)
    return GPTForCausalLM(GPTModel(vocab_size, max_position_embeddings=max_position_embeddings, **cfg))
