// The TypeScript text zoo (models/text: BERT-tiny, GPT-mini, an LSTM language model): parameter
// names and counts, forward shapes, padding and causal masks, and one SGD step that gives every
// parameter a gradient and lowers the loss. Small configurations keep it fast; full factories are counted.
import { describe, expect, it } from 'vitest';
import { paddle } from '../../src/paddle.js';
import { BertForSequenceClassification, BertModel, LSTMLanguageModel, bert_tiny, causal_lm_loss, gpt_mini } from '../../models/text/index.js';
import { count, T, trainStep } from './zoo_helpers.js';

const ids = (rows: number[][]) => T(paddle.to_tensor(rows, 'int64'));
const maxDiff = (a: unknown, b: unknown) => T(paddle.max(paddle.abs(paddle.subtract(a, b)))).item() as number;
const smallBert = () => new BertModel({ vocab_size: 50, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 32,
  max_position_embeddings: 16, type_vocab_size: 2 });

describe('text zoo (TypeScript)', () => {
  it('BERT-tiny: PaddleNLP names and Google\'s parameter count', () => {
    const m = bert_tiny();
    expect(count(m)).toBe(4385920);
    const keys = Object.keys(m.state_dict());
    expect(keys.slice(0, 3)).toEqual(['embeddings.word_embeddings.weight', 'embeddings.position_embeddings.weight', 'embeddings.token_type_embeddings.weight']);
    for (const k of ['encoder.layers.1.self_attn.q_proj.weight', 'encoder.layers.1.linear1.weight', 'encoder.layers.1.norm2.bias', 'pooler.dense.weight']) expect(keys).toContain(k);
  });

  it('BERT: forward shapes, padding mask, classifier training step, length check', () => {
    paddle.seed(1);
    const bert = smallBert();
    bert.eval();
    const a = ids([[5, 6, 7, 8, 0, 0], [9, 10, 11, 12, 13, 14]]);
    const [seq, pooled] = bert.call(a) as Tensor2;
    expect(seq.shape).toEqual([2, 6, 16]);
    expect(pooled.shape).toEqual([2, 16]);
    // a longer run of pads leaves the first row's real tokens' states unchanged
    const [seq2] = bert.call(ids([[5, 6, 7, 8, 0, 0, 0], [9, 10, 11, 12, 13, 14, 15]])) as Tensor2;
    expect(maxDiff(seq2.get(0, ':4'), seq.get(0, ':4'))).toBeLessThan(1e-4);
    const clf = new BertForSequenceClassification(bert, 3);
    expect(T(clf.call(a)).shape).toEqual([2, 3]);
    expect(Object.keys(clf.state_dict())).toContain('bert.embeddings.word_embeddings.weight');
    expect(Object.keys(clf.state_dict())).toContain('classifier.weight');
    trainStep(clf, [a], (logits) => T(paddle.nn.functional.cross_entropy(logits, ids([[0], [2]]).reshape([2]))));
    expect(() => bert.call(paddle.ones([2, 20], 'int64'))).toThrow(/max_position_embeddings/);
  });

  it('GPT-mini: count, names, causality and a training step', () => {
    const h = 192, ff = 768, perLayer = 4 * (h * h + h) + (h * ff + ff) + (ff * h + h) + 4 * h;
    expect(count(gpt_mini())).toBe(50257 * h + 1024 * h + 6 * perLayer + 2 * h);   // 12,515,520; the head is tied
    paddle.seed(2);
    const m = gpt_mini({ vocab_size: 40, max_position_embeddings: 16, num_hidden_layers: 2 });
    const keys = Object.keys(m.state_dict());
    expect(keys.slice(0, 2)).toEqual(['gpt.embeddings.word_embeddings.weight', 'gpt.embeddings.position_embeddings.weight']);
    expect(keys.slice(-2)).toEqual(['gpt.decoder.norm.weight', 'gpt.decoder.norm.bias']);
    m.eval();
    const a = ids([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]);
    const logits = T(m.call(a));
    expect(logits.shape).toEqual([2, 6, 40]);
    const other = T(m.call(ids([[1, 2, 3, 30, 31, 32], [7, 8, 9, 33, 34, 35]])));   // only positions >= 3 differ
    expect(maxDiff(other.get(':', ':3'), logits.get(':', ':3'))).toBeLessThan(1e-5);
    expect(maxDiff(other.get(':', '3:'), logits.get(':', '3:'))).toBeGreaterThan(1e-3);
    trainStep(m, [a], (lg) => causal_lm_loss(lg, a));
  });

  it('LSTM language model: names, shapes, training step, tied head', () => {
    paddle.seed(3);
    const m = new LSTMLanguageModel(30, { embed_dim: 12, hidden_size: 12, num_layers: 2, dropout: 0.1 });
    const keys = Object.keys(m.state_dict());
    expect(keys[0]).toBe('embedding.weight');
    expect(keys).toContain('lstm.weight_ih_l1');
    expect(keys.slice(-2)).toEqual(['fc.weight', 'fc.bias']);
    const x = T(paddle.randint(0, 30, [3, 5]));
    const [logits, [hN, cN]] = m.call(x) as [Tensor, Tensor[]];
    expect(logits.shape).toEqual([3, 5, 30]);
    expect(hN.shape).toEqual([2, 3, 12]);
    expect(cN.shape).toEqual([2, 3, 12]);
    trainStep(m, [x], (out) => causal_lm_loss(out[0], x));
    const tied = new LSTMLanguageModel(30, { embed_dim: 12, hidden_size: 12, tie_weights: true });
    expect(Object.keys(tied.state_dict())).toContain('fc_bias');
    expect(Object.keys(tied.state_dict())).not.toContain('fc.weight');
    expect((tied.call(x) as [Tensor])[0].shape).toEqual([3, 5, 30]);
    expect(() => new LSTMLanguageModel(30, { embed_dim: 8, hidden_size: 12, tie_weights: true })).toThrow(/tie_weights/);
  });
});

type Tensor = ReturnType<typeof T>;
type Tensor2 = [Tensor, Tensor];
