// BERT with PaddleNLP's structure and parameter names: the TypeScript twin of
// models/text/bert.py (embeddings.word_embeddings, encoder.layers.0.self_attn.q_proj,
// encoder.layers.0.linear1, pooler.dense, ...). bertTiny() is Google's BERT-tiny shape.
import { Dropout, Embedding, Layer, LayerNorm, Linear, ParamAttr, Tanh, TransformerEncoder, TransformerEncoderLayer } from '../../src/nn/index.js';
import { Normal } from '../../src/nn/initializer.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { positionIds } from './positions.js';

const T = (v: unknown): Tensor => v as Tensor;
/** PaddleNLP's init: Normal(0, initializer_range) for every Linear and Embedding weight. */
const normal = (std: number) => new ParamAttr({ initializer: new Normal(0, std) });

/** word + position + token-type embeddings, then LayerNorm and dropout. */
export class BertEmbeddings extends Layer {
  word_embeddings: Embedding; position_embeddings: Embedding; token_type_embeddings: Embedding; layer_norm: LayerNorm; dropout: Dropout;
  constructor(vocab_size: number, hidden_size = 768, hidden_dropout_prob = 0.1, readonly max_position_embeddings = 512, type_vocab_size = 16,
    initializer_range = 0.02, layer_norm_eps = 1e-12) {
    super();
    this.word_embeddings = new Embedding(vocab_size, hidden_size, null, false, normal(initializer_range));
    this.position_embeddings = new Embedding(max_position_embeddings, hidden_size, null, false, normal(initializer_range));
    this.token_type_embeddings = new Embedding(type_vocab_size, hidden_size, null, false, normal(initializer_range));
    this.layer_norm = new LayerNorm(hidden_size, layer_norm_eps);
    this.dropout = new Dropout(hidden_dropout_prob);
  }
  override forward(input_ids: Tensor, token_type_ids: Tensor | null = null, position_ids: Tensor | null = null): Tensor {
    const seq = input_ids.shape[1];
    if (typeof seq === 'number' && seq > this.max_position_embeddings) throw new RangeError(`BertEmbeddings: sequence length ${seq} exceeds max_position_embeddings ${this.max_position_embeddings}`);
    const pos = position_ids ?? positionIds(input_ids);
    const types = token_type_ids ?? T(paddle.zeros_like(input_ids));
    const emb = paddle.add(paddle.add(this.word_embeddings.call(input_ids), this.position_embeddings.call(pos)), this.token_type_embeddings.call(types));
    return T(this.dropout.call(this.layer_norm.call(emb)));
  }
}

/** tanh(dense(first token's state)). */
export class BertPooler extends Layer {
  dense: Linear; activation: Layer;
  constructor(hidden_size: number, initializer_range = 0.02) {
    super();
    this.dense = new Linear(hidden_size, hidden_size, normal(initializer_range));
    this.activation = new Tanh();
  }
  override forward(h: Tensor): Tensor { return T(this.activation.call(this.dense.call(h.get(':', 0)))); }
}

export interface BertConfig {
  vocab_size: number; hidden_size?: number; num_hidden_layers?: number; num_attention_heads?: number; intermediate_size?: number; hidden_act?: string;
  hidden_dropout_prob?: number; attention_probs_dropout_prob?: number; max_position_embeddings?: number; type_vocab_size?: number;
  initializer_range?: number; pad_token_id?: number; layer_norm_eps?: number;
}

/**
 * PaddleNLP's BertModel: forward(input_ids, token_type_ids, position_ids, attention_mask) →
 * [sequence_output [N, S, H], pooled_output [N, H]]. Without a mask, pad_token_id positions
 * are masked out (-1e4 added to their attention logits), as PaddleNLP.
 */
export class BertModel extends Layer {
  readonly pad_token_id: number;
  embeddings: BertEmbeddings; encoder: TransformerEncoder; pooler: BertPooler;
  constructor(c: BertConfig) {
    super();
    const h = c.hidden_size ?? 768, init = c.initializer_range ?? 0.02, eps = c.layer_norm_eps ?? 1e-12, drop = c.hidden_dropout_prob ?? 0.1;
    this.pad_token_id = c.pad_token_id ?? 0;
    this.embeddings = new BertEmbeddings(c.vocab_size, h, drop, c.max_position_embeddings ?? 512, c.type_vocab_size ?? 16, init, eps);
    const layer = new TransformerEncoderLayer(h, c.num_attention_heads ?? 12, c.intermediate_size ?? 3072, drop, c.hidden_act ?? 'gelu',
      c.attention_probs_dropout_prob ?? 0.1, 0, false, normal(init), null, eps);
    this.encoder = new TransformerEncoder(layer, c.num_hidden_layers ?? 12);
    this.pooler = new BertPooler(h, init);
  }
  override forward(input_ids: Tensor, token_type_ids: Tensor | null = null, position_ids: Tensor | null = null, attention_mask: Tensor | null = null): [Tensor, Tensor] {
    if (input_ids.ndim !== 2) throw new RangeError(`BertModel: input_ids must be [batch, seq], got shape [${input_ids.shape.join(', ')}]`);
    const mask = attention_mask ?? T(paddle.unsqueeze(paddle.scale(paddle.cast(paddle.equal(input_ids, paddle.full([], this.pad_token_id, input_ids.dtype)), 'float32'), -1e4), [1, 2]));
    const seq = T(this.encoder.call(this.embeddings.call(input_ids, token_type_ids, position_ids), mask));
    return [seq, T(this.pooler.call(seq))];
  }
}

/** bert + dropout + classifier on the pooled output; forward returns logits [N, num_classes]. */
export class BertForSequenceClassification extends Layer {
  bert: BertModel; dropout: Dropout; classifier: Linear;
  constructor(bert: BertModel, readonly num_classes = 2, dropout: number | null = null) {
    super();
    this.bert = bert;
    this.dropout = new Dropout(dropout ?? 0.1);
    this.classifier = new Linear(bert.pooler.dense.weight.shape[0], num_classes);
  }
  override forward(input_ids: Tensor, token_type_ids: Tensor | null = null, position_ids: Tensor | null = null, attention_mask: Tensor | null = null): Tensor {
    const [, pooled] = this.bert.call(input_ids, token_type_ids, position_ids, attention_mask) as [Tensor, Tensor];
    return T(this.classifier.call(this.dropout.call(pooled)));
  }
}

/** Google's BERT-tiny (uncased_L-2_H-128_A-2): vocab 30522, 2 layers, 128 wide, 2 heads, FFN 512, 2 token types. */
export function bert_tiny(c: Partial<BertConfig> = {}): BertModel {
  return new BertModel({ vocab_size: 30522, hidden_size: 128, num_hidden_layers: 2, num_attention_heads: 2, intermediate_size: 512,
    max_position_embeddings: 512, type_vocab_size: 2, ...c });
}
