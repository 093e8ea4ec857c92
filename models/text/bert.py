"""BERT with PaddleNLP's structure and parameter names (embeddings.word_embeddings,
embeddings.layer_norm, encoder.layers.0.self_attn.q_proj, encoder.layers.0.linear1,
encoder.layers.0.norm1, pooler.dense, ...), so PaddleNLP BERT state dicts load by name.
bert_tiny() is Google's BERT-tiny shape (2 layers, 128 wide, 2 heads, 4.4M parameters).
TypeScript twin: models/text/bert.ts."""
import paddle
import paddle.nn as nn

from .positions import position_ids as _position_ids


def _normal(std):
    """PaddleNLP's init: Normal(0, initializer_range) for every Linear and Embedding weight."""
    return paddle.ParamAttr(initializer=nn.initializer.Normal(0.0, std))


class BertEmbeddings(nn.Layer):
    """word + position + token-type embeddings, then LayerNorm and dropout."""

    def __init__(self, vocab_size, hidden_size=768, hidden_dropout_prob=0.1, max_position_embeddings=512,
                 type_vocab_size=16, initializer_range=0.02, layer_norm_eps=1e-12):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, weight_attr=_normal(initializer_range))
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden_size, weight_attr=_normal(initializer_range))
        self.token_type_embeddings = nn.Embedding(type_vocab_size, hidden_size, weight_attr=_normal(initializer_range))
        self.layer_norm = nn.LayerNorm(hidden_size, epsilon=layer_norm_eps)
        self.dropout = nn.Dropout(hidden_dropout_prob)
        self.max_position_embeddings = max_position_embeddings

    def forward(self, input_ids, token_type_ids=None, position_ids=None):
        seq = input_ids.shape[1]
        if seq > self.max_position_embeddings:  # -1: symbolic while tracing
            raise ValueError('BertEmbeddings: sequence length %d exceeds max_position_embeddings %d' % (seq, self.max_position_embeddings))
        if position_ids is None:
            position_ids = _position_ids(input_ids)
        if token_type_ids is None:
            token_type_ids = paddle.zeros_like(input_ids)
        emb = self.word_embeddings(input_ids) + self.position_embeddings(position_ids) + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.layer_norm(emb))


class BertPooler(nn.Layer):
    """tanh(dense(first token's state))."""

    def __init__(self, hidden_size, initializer_range=0.02):
        super().__init__()
        self.dense = nn.Linear(hidden_size, hidden_size, weight_attr=_normal(initializer_range))
        self.activation = nn.Tanh()

    def forward(self, hidden_states):
        return self.activation(self.dense(hidden_states[:, 0]))


class BertModel(nn.Layer):
    """PaddleNLP's BertModel arguments; forward(input_ids, token_type_ids=None, position_ids=None,
    attention_mask=None) -> (sequence_output [N, S, H], pooled_output [N, H]). Without a mask,
    pad_token_id positions are masked out (-1e4 added to their attention logits), as PaddleNLP."""

    def __init__(self, vocab_size, hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
                 hidden_act='gelu', hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1, max_position_embeddings=512,
                 type_vocab_size=16, initializer_range=0.02, pad_token_id=0, layer_norm_eps=1e-12):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.embeddings = BertEmbeddings(vocab_size, hidden_size, hidden_dropout_prob, max_position_embeddings,
                                         type_vocab_size, initializer_range, layer_norm_eps)
        layer = nn.TransformerEncoderLayer(hidden_size, num_attention_heads, intermediate_size, dropout=hidden_dropout_prob,
                                           activation=hidden_act, attn_dropout=attention_probs_dropout_prob, act_dropout=0,
                                           weight_attr=_normal(initializer_range), layer_norm_eps=layer_norm_eps)
        self.encoder = nn.TransformerEncoder(layer, num_hidden_layers)
        self.pooler = BertPooler(hidden_size, initializer_range)

    def forward(self, input_ids, token_type_ids=None, position_ids=None, attention_mask=None):
        if input_ids.ndim != 2:
            raise ValueError('BertModel: input_ids must be [batch, seq], got shape %s' % input_ids.shape)
        if attention_mask is None:
            attention_mask = ((input_ids == self.pad_token_id).astype('float32') * -1e4).unsqueeze([1, 2])
        emb = self.embeddings(input_ids, token_type_ids, position_ids)
        seq = self.encoder(emb, attention_mask)
        return seq, self.pooler(seq)


class BertForSequenceClassification(nn.Layer):
    """bert + dropout + classifier on the pooled output; forward returns logits [N, num_classes]."""

    def __init__(self, bert, num_classes=2, dropout=None):
        super().__init__()
        self.bert = bert
        self.num_classes = num_classes
        hidden = bert.pooler.dense.weight.shape[0]
        self.dropout = nn.Dropout(dropout if dropout is not None else 0.1)
        self.classifier = nn.Linear(hidden, num_classes)

    def forward(self, input_ids, token_type_ids=None, position_ids=None, attention_mask=None):
        _, pooled = self.bert(input_ids, token_type_ids, position_ids, attention_mask)
        return self.classifier(self.dropout(pooled))


def bert_tiny(**kwargs):
    """Google's BERT-tiny (uncased_L-2_H-128_A-2): vocab 30522, 2 layers, 128 wide, 2 heads, FFN 512, 2 token types."""
    cfg = dict(vocab_size=30522, hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512,
               max_position_embeddings=512, type_vocab_size=2)
    cfg.update(kwargs)
    return BertModel(**cfg)
