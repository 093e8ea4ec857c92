"""The text zoo (Python; TypeScript twins alongside as *.ts, same parameter names):
BERT-tiny, GPT-mini and an LSTM language model, built from paddle.nn's Embedding,
TransformerEncoder(Layer), LSTM, LayerNorm and Linear. Import with models/ on sys.path:
`from text import bert_tiny, gpt_mini, LSTMLanguageModel`."""
from .bert import BertEmbeddings, BertPooler, BertModel, BertForSequenceClassification, bert_tiny  # noqa: F401
from .gpt import GPTEmbeddings, GPTModel, GPTForCausalLM, gpt_mini, causal_lm_loss  # noqa: F401
from .lstm_lm import LSTMLanguageModel  # noqa: F401
