"""An LSTM language model (the classic PTB word model's shape): embedding -> dropout ->
multi-layer nn.LSTM -> dropout -> Linear to the vocabulary, optionally tied to the embedding.
Parameter names: embedding.weight, lstm.* (paddle.nn.LSTM's own), fc.weight, fc.bias.
TypeScript twin: models/text/lstm_lm.ts."""
import paddle
import paddle.nn as nn


class LSTMLanguageModel(nn.Layer):
    """forward(input_ids [N, S], initial_states=None) -> (logits [N, S, vocab], (h, c) each [num_layers, N, hidden])."""

    def __init__(self, vocab_size, embed_dim=200, hidden_size=200, num_layers=2, dropout=0.2, tie_weights=False, init_scale=0.1):
        super().__init__()
        if tie_weights and embed_dim != hidden_size:
            raise ValueError('LSTMLanguageModel: tie_weights needs embed_dim == hidden_size, got %d and %d' % (embed_dim, hidden_size))
        uni = paddle.ParamAttr(initializer=nn.initializer.Uniform(-init_scale, init_scale))
        self.tie_weights = tie_weights
        self.embedding = nn.Embedding(vocab_size, embed_dim, weight_attr=uni)
        self.dropout = nn.Dropout(dropout)
        self.lstm = nn.LSTM(embed_dim, hidden_size, num_layers=num_layers, dropout=dropout)
        if not tie_weights:
            self.fc = nn.Linear(hidden_size, vocab_size, weight_attr=uni)
        else:
            self.fc_bias = self.create_parameter([vocab_size], is_bias=True)

    def forward(self, input_ids, initial_states=None):
        if input_ids.ndim != 2:
            raise ValueError('LSTMLanguageModel: input_ids must be [batch, seq], got shape %s' % input_ids.shape)
        x = self.dropout(self.embedding(input_ids))
        y, states = self.lstm(x, initial_states)
        y = self.dropout(y)
        if self.tie_weights:
            return paddle.matmul(y, self.embedding.weight, transpose_y=True) + self.fc_bias, states
        return self.fc(y), states
