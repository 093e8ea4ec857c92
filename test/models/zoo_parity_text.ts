// Text-model cases for zoo_parity.test.ts (the builders' Python twins are in zoo_parity_models.py).
import { paddle } from '../../src/paddle.js';
import { BertForSequenceClassification, BertModel, LSTMLanguageModel, gpt_mini } from '../../models/text/index.js';
import { T, type ParityCase } from './zoo_helpers.js';

export const PARITY_TEXT_CASES: ParityCase[] = [
  { name: 'bert', build: () => new BertForSequenceClassification(new BertModel({ vocab_size: 50, hidden_size: 16, num_hidden_layers: 2, num_attention_heads: 2,
    intermediate_size: 32, max_position_embeddings: 16, type_vocab_size: 2 }), 3),
  inputs: () => [T(paddle.to_tensor([[5, 6, 7, 8, 0, 0], [9, 10, 11, 12, 13, 14]], 'int64'))] },
  { name: 'gpt', build: () => gpt_mini({ vocab_size: 40, max_position_embeddings: 16, num_hidden_layers: 2 }), inputs: () => [T(paddle.randint(0, 40, [2, 7]))] },
  { name: 'lstm_lm', build: () => new LSTMLanguageModel(30, { embed_dim: 12, hidden_size: 12, num_layers: 2, dropout: 0.1 }), inputs: () => [T(paddle.randint(0, 30, [3, 5]))] },
];
