// The TypeScript text zoo: twins of models/text/*.py with the same parameter names.
export { BertEmbeddings, BertPooler, BertModel, BertForSequenceClassification, bert_tiny, type BertConfig } from './bert.js';
export { GPTEmbeddings, GPTModel, GPTForCausalLM, gpt_mini, causal_lm_loss, type GPTConfig } from './gpt.js';
export { LSTMLanguageModel, type LSTMLMOptions } from './lstm_lm.js';
