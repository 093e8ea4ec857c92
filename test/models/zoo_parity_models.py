"""Text-model builders for zoo_parity.py (the TypeScript twins are in zoo_parity_text.ts)."""
import os
import sys

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'models')))
from text import BertForSequenceClassification, BertModel, LSTMLanguageModel, gpt_mini  # noqa: E402

TEXT_BUILDERS = {
    'bert': lambda: BertForSequenceClassification(
        BertModel(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                  max_position_embeddings=16, type_vocab_size=2), num_classes=3),
    'gpt': lambda: gpt_mini(vocab_size=40, max_position_embeddings=16, num_hidden_layers=2),
    'lstm_lm': lambda: LSTMLanguageModel(30, embed_dim=12, hidden_size=12, num_layers=2, dropout=0.1),
}
