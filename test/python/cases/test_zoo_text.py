"""The text zoo in Python (models/text: BERT-tiny, GPT-mini, an LSTM language model): parameter
names and counts, forward shapes, causality, and one SGD step that gives every parameter a
gradient and lowers the loss. Small configurations keep it fast; full factories are counted."""
import os
import sys

import paddle
import paddle.nn.functional as F
from paddle.hapi.host import host_dir

_MODELS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'models'))
sys.path.insert(0, host_dir(_MODELS))   # mounts the repository's models/ into Pyodide

from text import (BertForSequenceClassification, BertModel, LSTMLanguageModel, bert_tiny,  # noqa: E402
                  causal_lm_loss, gpt_mini)


def _count(model):
    return sum(p.size for p in model.parameters())


def _train_step(model, inputs, loss_of, step=1e-3):
    """One SGD step of length `step` in parameter space, dropout off: every parameter gets a gradient, the loss goes down.
    Attention-probability and between-layer LSTM dropout live inside MultiHeadAttention and LSTM, so those go to eval too."""
    model.train()
    for layer in model.sublayers():
        if isinstance(layer, (paddle.nn.Dropout, paddle.nn.MultiHeadAttention, paddle.nn.LSTM)):
            layer.eval()
    loss = loss_of(model(*inputs))
    loss.backward()
    missing = [n for n, p in model.named_parameters() if p.grad is None]
    assert not missing, 'no gradient for %s' % missing[:5]
    norm = sum((p.grad * p.grad).sum().item() for p in model.parameters()) ** 0.5
    opt = paddle.optimizer.SGD(learning_rate=step / norm, parameters=model.parameters())
    opt.step()
    opt.clear_grad()
    after = loss_of(model(*inputs))
    assert after.item() < loss.item(), 'loss %f -> %f' % (loss.item(), after.item())


def _small_bert():
    return BertModel(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                     max_position_embeddings=16, type_vocab_size=2)


def test_bert_tiny_names_and_count():
    m = bert_tiny()
    assert _count(m) == 4385920   # Google's BERT-tiny with pooler
    keys = list(m.state_dict())
    assert keys[:3] == ['embeddings.word_embeddings.weight', 'embeddings.position_embeddings.weight',
                        'embeddings.token_type_embeddings.weight']
    for k in ('encoder.layers.1.self_attn.q_proj.weight', 'encoder.layers.1.linear1.weight', 'encoder.layers.1.norm2.bias',
              'pooler.dense.weight'):
        assert k in keys, k


def test_bert_forward_padding_and_train_step():
    paddle.seed(1)
    bert = _small_bert()
    ids = paddle.to_tensor([[5, 6, 7, 8, 0, 0], [9, 10, 11, 12, 13, 14]])
    bert.eval()
    seq, pooled = bert(ids)
    assert seq.shape == [2, 6, 16] and pooled.shape == [2, 16]
    # pad positions (id 0) are masked out: a longer run of pads leaves the first row's real tokens' states unchanged
    ids2 = paddle.to_tensor([[5, 6, 7, 8, 0, 0, 0], [9, 10, 11, 12, 13, 14, 15]])
    seq2, _ = bert(ids2)
    assert (seq2[0, :4] - seq[0, :4]).abs().max().item() < 1e-4
    clf = BertForSequenceClassification(bert, num_classes=3)
    assert clf(ids).shape == [2, 3]
    assert 'bert.embeddings.word_embeddings.weight' in clf.state_dict() and 'classifier.weight' in clf.state_dict()
    _train_step(clf, [ids], lambda logits: F.cross_entropy(logits, paddle.to_tensor([0, 2])))
    try:
        bert(paddle.ones([2, 20], dtype='int64'))
    except ValueError as e:
        assert 'max_position_embeddings' in str(e)
    else:
        raise AssertionError('too long a sequence accepted')


def test_gpt_mini_causal_and_train_step():
    h, ff = 192, 768
    per_layer = 4 * (h * h + h) + (h * ff + ff) + (ff * h + h) + 4 * h
    assert _count(gpt_mini()) == 50257 * h + 1024 * h + 6 * per_layer + 2 * h   # 12,515,520; the head is tied
    paddle.seed(2)
    m = gpt_mini(vocab_size=40, max_position_embeddings=16, num_hidden_layers=2)
    keys = list(m.state_dict())
    assert keys[:2] == ['gpt.embeddings.word_embeddings.weight', 'gpt.embeddings.position_embeddings.weight']
    assert keys[-2:] == ['gpt.decoder.norm.weight', 'gpt.decoder.norm.bias']
    m.eval()
    ids = paddle.to_tensor([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    logits = m(ids)
    assert logits.shape == [2, 6, 40]
    later = paddle.to_tensor([[1, 2, 3, 30, 31, 32], [7, 8, 9, 33, 34, 35]])   # only positions >= 3 differ
    other = m(later)
    assert (other[:, :3] - logits[:, :3]).abs().max().item() < 1e-5
    assert (other[:, 3:] - logits[:, 3:]).abs().max().item() > 1e-3
    _train_step(m, [ids], lambda lg: causal_lm_loss(lg, ids))


def test_lstm_language_model():
    paddle.seed(3)
    m = LSTMLanguageModel(30, embed_dim=12, hidden_size=12, num_layers=2, dropout=0.1)
    keys = list(m.state_dict())
    assert keys[0] == 'embedding.weight' and 'lstm.weight_ih_l1' in keys and keys[-2:] == ['fc.weight', 'fc.bias']
    ids = paddle.randint(0, 30, [3, 5])
    logits, (h, c) = m(ids)
    assert logits.shape == [3, 5, 30] and h.shape == [2, 3, 12] and c.shape == [2, 3, 12]
    _train_step(m, [ids], lambda out: causal_lm_loss(out[0], ids))
    tied = LSTMLanguageModel(30, embed_dim=12, hidden_size=12, tie_weights=True)
    assert 'fc_bias' in tied.state_dict() and 'fc.weight' not in tied.state_dict()
    assert tied(ids)[0].shape == [3, 5, 30]
    try:
        LSTMLanguageModel(30, embed_dim=8, hidden_size=12, tie_weights=True)
    except ValueError as e:
        assert 'tie_weights' in str(e)
    else:
        raise AssertionError('mismatched tied sizes accepted')
