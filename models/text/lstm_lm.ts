// An LSTM language model: the TypeScript twin of models/text/lstm_lm.py (embedding.weight,
// lstm.* as paddle.nn.LSTM names them, fc.weight/fc.bias or a tied head with fc_bias).
import { Dropout, Embedding, Layer, Linear, LSTM, ParamAttr } from '../../src/nn/index.js';
import { Uniform } from '../../src/nn/initializer.js';
import { paddle } from '../../src/paddle.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const T = (v: unknown): Tensor => v as Tensor;

export interface LSTMLMOptions { embed_dim?: number; hidden_size?: number; num_layers?: number; dropout?: number; tie_weights?: boolean; init_scale?: number }

/** forward(input_ids [N, S], initial_states) → [logits [N, S, vocab], [h, c] each [num_layers, N, hidden]]. */
export class LSTMLanguageModel extends Layer {
  readonly tie_weights: boolean;
  embedding: Embedding; dropout: Dropout; lstm: LSTM;
  fc: Linear | null = null;
  fc_bias: Tensor | null = null;
  constructor(vocab_size: number, o: LSTMLMOptions = {}) {
    super();
    const embed = o.embed_dim ?? 200, hidden = o.hidden_size ?? 200, s = o.init_scale ?? 0.1, drop = o.dropout ?? 0.2;
    this.tie_weights = o.tie_weights ?? false;
    if (this.tie_weights && embed !== hidden) throw new RangeError(`LSTMLanguageModel: tie_weights needs embed_dim == hidden_size, got ${embed} and ${hidden}`);
    const uni = () => new ParamAttr({ initializer: new Uniform(-s, s) });
    this.embedding = new Embedding(vocab_size, embed, null, false, uni());
    this.dropout = new Dropout(drop);
    this.lstm = new LSTM(embed, hidden, o.num_layers ?? 2, 'forward', false, drop);
    if (!this.tie_weights) this.fc = new Linear(hidden, vocab_size, uni());
    else this.fc_bias = this.create_parameter([vocab_size], null, null, true);
  }
  override forward(input_ids: Tensor, initial_states: Tensor[] | null = null): [Tensor, Tensor[]] {
    if (input_ids.ndim !== 2) throw new RangeError(`LSTMLanguageModel: input_ids must be [batch, seq], got shape [${input_ids.shape.join(', ')}]`);
    const x = this.dropout.call(this.embedding.call(input_ids));
    const [y, states] = this.lstm.call(x, initial_states) as [Tensor, Tensor[]];
    const h = T(this.dropout.call(y));
    const logits = this.fc ? T(this.fc.call(h)) : T(paddle.add(paddle.matmul(h, this.embedding.weight, { transpose_y: true }), this.fc_bias!));
    return [logits, states];
  }
}
