"""Train a tiny stanza tokenizer and NER model with stanza's own training commands.

The tests of the stanza backend need models and must not download any, so a session
fixture trains two deliberately small ones on a few hand-written sentences (CPU, seconds
each). They are not good models; they are real stanza models, loaded through the
backend exactly as downloaded ones would be.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# (sentence tokens, entity tags) pairs; entity tags in BIO.
SENTENCES = [
    ("The Harbour Light Museum opens in Velmora .", "B-ORG I-ORG I-ORG I-ORG O O B-GPE O"),
    ("Marta Quill visited Velmora in May .", "B-PER I-PER O B-GPE O O O"),
    ("The Velmora ferry leaves at eight .", "O B-GPE O O O O O"),
    ("Anna Berg works at the Harbour Light Museum .", "B-PER I-PER O O O B-ORG I-ORG I-ORG I-ORG O"),
    ("Lisbon is the capital of Portugal .", "B-GPE O O O O B-GPE O"),
    ("John Lennon wrote Imagine .", "B-PER I-PER O O O"),
    ("Paris is in France .", "B-GPE O O B-GPE O"),
    ("Marta Quill lives in Lisbon .", "B-PER I-PER O O B-GPE O"),
]


def _tokenizer_files(folder: Path) -> tuple[Path, Path]:
    """Plain text and stanza's per-character labels (0 inside, 1 token end, 2 sentence end).

    Punctuation is written as in running text ("May."), two sentences per paragraph, so
    the model learns to split "May." and to end sentences.
    """
    paragraphs, labels = [], []
    pairs = [(SENTENCES[i], SENTENCES[(i + 3) % len(SENTENCES)]) for i in range(len(SENTENCES))]
    for pair in pairs * 3:
        text, label = [], []
        for tokens, _ in pair:
            words = tokens.split()
            for index, word in enumerate(words):
                if (text and word not in ".,") :
                    text.append(" ")
                    label.append("0")
                text.append(word)
                label.append("0" * (len(word) - 1) + ("2" if index == len(words) - 1 else "1"))
        paragraphs.append("".join(text))
        labels.append("".join(label))
    txt, lab = folder / "tok.txt", folder / "tok.labels"
    txt.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    lab.write_text("\n\n".join(labels) + "\n", encoding="utf-8")
    return txt, lab


def _ner_file(folder: Path) -> Path:
    docs = [[{"text": w, "ner": t} for w, t in zip(tokens.split(), tags.split())] for tokens, tags in SENTENCES]
    path = folder / "ner.json"
    path.write_text(json.dumps(docs), encoding="utf-8")
    return path


def _run(args: list[str], folder: Path) -> None:
    # One thread: these models are tiny, and thread start-up costs more than it saves.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-m", *args], cwd=folder, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"stanza training failed: {' '.join(args)}\n{done.stderr[-3000:]}")


def train_tiny_models(folder: Path) -> dict[str, Path]:
    """Train and return {"tokenize": path, "ner": path}."""
    folder.mkdir(parents=True, exist_ok=True)
    txt, lab = _tokenizer_files(folder)
    tokenizer = folder / "en_tiny_tokenizer.pt"
    mwt = folder / "mwt.json"
    mwt.write_text("[]", encoding="utf-8")  # English has no multi-word tokens
    _run(["stanza.models.tokenizer", "--mode", "train", "--lang", "en", "--shorthand", "en_tiny",
          "--txt_file", str(txt), "--label_file", str(lab), "--mwt_json_file", str(mwt), "--dev_txt_file", str(txt),
          "--dev_label_file", str(lab), "--steps", "200", "--eval_steps", "100000", "--batch_size", "8",
          "--max_seqlen", "100", "--hidden_dim", "16", "--emb_dim", "8", "--conv_filters", "1,5,9,,1,5,9",
          "--rnn_layers", "1", "--save_name", str(tokenizer), "--save_dir", str(folder), "--cpu",
          "--seed", "1"], folder)
    ner_data = _ner_file(folder)
    _run(["stanza.models.ner_tagger", "--mode", "train", "--shorthand", "en_tiny", "--train_file", str(ner_data),
          "--eval_file", str(ner_data), "--no_pretrain", "--max_steps", "80", "--eval_interval", "80",
          "--batch_size", "8", "--hidden_dim", "32", "--word_emb_dim", "16", "--char_hidden_dim", "16",
          "--char_emb_dim", "8", "--save_dir", str(folder), "--save_name", "en_tiny_nertagger.pt", "--cpu",
          "--seed", "1"], folder)
    ner = folder / "en_tiny_nertagger.pt"
    if not tokenizer.is_file() or not ner.is_file():
        found = sorted(p.name for p in folder.iterdir())
        raise RuntimeError(f"stanza training wrote no model where expected; folder holds {found}")
    return {"tokenize": tokenizer, "ner": ner}


if __name__ == "__main__":
    print(train_tiny_models(Path(sys.argv[1])))
