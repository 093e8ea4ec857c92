// A GPT (decoder-only, causal) with PaddleNLP's GPT parameter names: the TypeScript twin of
// models/text/gpt.py (gpt.embeddings.word_embeddings, gpt.decoder.layers.0.self_attn.q_proj,
// ..., gpt.decoder.norm). Pre-norm TransformerEncoderLayers under a causal mask and an LM head
// tied to the word embeddings; gpt_mini() is minGPT's 'gpt-mini' shape.
import { Dropout, Embedding, Layer, LayerNorm, ParamAttr, TransformerEncoder, TransformerEncoderLayer } from '../../src/nn/index.js';
import { Normal } from '../../src/nn/initializer.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { causalMask, positionIds } from './positions.js';

const T = (v: unknown): Tensor => v as Tensor;
const normal = (std: number) => new ParamAttr({ initializer: new Normal(0, std) });

export class GPTEmbeddings extends Layer {
  word_embeddings: Embedding; position_embeddings: Embedding; dropout: Dropout;
  constructor(vocab_size: number, hidden_size = 768, hidden_dropout_prob = 0.1, readonly max_position_embeddings = 512, initializer_range = 0.02) {
    super();
    this.word_embeddings = new Embedding(vocab_size, hidden_size, null, false, normal(initializer_range));
    this.position_embeddings = new Embedding(max_position_embeddings, hidden_size, null, false, normal(initializer_range));
    this.dropout = new Dropout(hidden_dropout_prob);
  }
  override forward(input_ids: Tensor, position_ids: Tensor | null = null): Tensor {
    const seq = input_ids.shape[1];
    if (typeof seq === 'number' && seq > this.max_position_embeddings) throw new RangeError(`GPTEmbeddings: sequence length ${seq} exceeds max_position_embeddings ${this.max_position_embeddings}`);
    const pos = position_ids ?? positionIds(input_ids);
    return T(this.dropout.call(paddle.add(this.word_embeddings.call(input_ids), this.position_embeddings.call(pos))));
  }
}

export interface GPTConfig {
  vocab_size: number; hidden_size?: number; num_hidden_layers?: number; num_attention_heads?: number; intermediate_size?: number; hidden_act?: string;
  hidden_dropout_prob?: number; attention_probs_dropout_prob?: number; max_position_embeddings?: number; initializer_range?: number; layer_norm_eps?: number;
}

/** forward(input_ids, position_ids) → final hidden states [N, S, H]; position i sees positions <= i only. */
export class GPTModel extends Layer {
  embeddings: GPTEmbeddings; decoder: TransformerEncoder;
  constructor(c: GPTConfig) {
    super();
    const h = c.hidden_size ?? 768, init = c.initializer_range ?? 0.02, eps = c.layer_norm_eps ?? 1e-5, drop = c.hidden_dropout_prob ?? 0.1;
    this.embeddings = new GPTEmbeddings(c.vocab_size, h, drop, c.max_position_embeddings ?? 512, init);
    const layer = new TransformerEncoderLayer(h, c.num_attention_heads ?? 12, c.intermediate_size ?? 3072, drop, c.hidden_act ?? 'gelu',
      c.attention_probs_dropout_prob ?? 0.1, 0, true, normal(init), null, eps);
    this.decoder = new TransformerEncoder(layer, c.num_hidden_layers ?? 12, new LayerNorm(h, eps));
  }
  override forward(input_ids: Tensor, position_ids: Tensor | null = null): Tensor {
    if (input_ids.ndim !== 2) throw new RangeError(`GPTModel: input_ids must be [batch, seq], got shape [${input_ids.shape.join(', ')}]`);
    // lower-triangular keep-mask (true = attend): the layers turn false into -1e9
    const causal = causalMask(input_ids);
    return T(this.decoder.call(this.embeddings.call(input_ids, position_ids), causal));
  }
}

/** gpt + an LM head tied to gpt.embeddings.word_embeddings: forward → logits [N, S, vocab]. */
export class GPTForCausalLM extends Layer {
  gpt: GPTModel;
  constructor(gpt: GPTModel) { super(); this.gpt = gpt; }
  override forward(input_ids: Tensor, position_ids: Tensor | null = null): Tensor {
    return T(paddle.matmul(this.gpt.call(input_ids, position_ids), this.gpt.embeddings.word_embeddings.weight, { transpose_y: true }));
  }
}

/** Mean next-token cross-entropy: logits at position i predict token i + 1. */
export function causal_lm_loss(logits: Tensor, input_ids: Tensor): Tensor {
  const v = logits.shape[2];
  return T(paddle.nn.functional.cross_entropy(paddle.reshape(logits.get(':', ':-1'), [-1, v]), paddle.reshape(input_ids.get(':', '1:'), [-1])));
}

/** minGPT's 'gpt-mini': 6 layers, 192 wide, 6 heads, FFN 768; returns GPTForCausalLM. */
export function gpt_mini(c: Partial<GPTConfig> = {}): GPTForCausalLM {
  return new GPTForCausalLM(new GPTModel({ vocab_size: 50257, max_position_embeddings: 1024, hidden_size: 192, num_hidden_layers: 6,
    num_attention_heads: 6, intermediate_size: 768, ...c }));
}
