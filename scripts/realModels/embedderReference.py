"""Reference vectors for Quire's ONNX text embedder test (test/models/onnxTextEmbedderReal.test.ts).

Embeds the same sentences with Python's onnxruntime and tokenizers over the same model.onnx and
tokenizer.json that Quire loads, pooling and prefixing as each model card says, written here on its
own rather than ported from Quire's TypeScript. Writes test/fixtures/embedderReference.json.

    python3 -m venv /tmp/embref && /tmp/embref/bin/pip install onnxruntime tokenizers numpy
    /tmp/embref/bin/python scripts/realModels/embedderReference.py DIR... > test/fixtures/embedderReference.json
    npx prettier --write test/fixtures/embedderReference.json

Each DIR holds model.onnx and tokenizer.json and is named after its model (bge..., e5..., ...MiniLM...).
"""

import hashlib
import json
import os
import re
import sys

import numpy as np
import onnxruntime
from tokenizers import Tokenizer

SENTENCES = [
    "The cat slept all afternoon on the warm windowsill.",
    "Quarterly revenue rose by twelve percent, driven by exports to Asia.",
    "To reset the router, hold the button on the back for ten seconds.",
    "Photosynthesis turns light, water and carbon dioxide into sugar and oxygen.",
    "Der Vertrag endet am 31. Dezember, sofern er nicht verlängert wird.",
]
# The first two sentences again, embedded as search queries.
QUERIES = [0, 1]

# family: (pooling, query prefix, passage prefix, longest input in tokens), from each model card
# (BGE v1.5's query instruction is optional there, and Quire leaves it out: see its recipe).
FAMILIES = {
    "bge": ("cls", "", "", 512),
    "e5": ("mean", "query: ", "passage: ", 512),
    "minilm": ("mean", "", "", 256),
}


def family_of(name):
    for family, pattern in (("minilm", r"minilm"), ("bge", r"bge"), ("e5", r"e5")):
        if re.search(pattern, name, re.IGNORECASE):
            return family
    raise SystemExit(f"cannot tell the family of {name}")


def embed(session, tokenizer, texts, pooling):
    encodings = tokenizer.encode_batch(texts)
    length = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(texts), length), dtype=np.int64)
    mask = np.zeros((len(texts), length), dtype=np.int64)
    for row, e in enumerate(encodings):
        ids[row, : len(e.ids)] = e.ids
        mask[row, : len(e.ids)] = 1
    feeds = {"input_ids": ids, "attention_mask": mask}
    if "token_type_ids" in [i.name for i in session.get_inputs()]:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = session.run(["last_hidden_state"], feeds)[0]
    if pooling == "cls":
        pooled = hidden[:, 0, :]
    else:
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main(folders):
    models = {}
    for folder in folders:
        name = os.path.basename(os.path.normpath(folder))
        family = family_of(name)
        pooling, query_prefix, passage_prefix, max_tokens = FAMILIES[family]
        tokenizer = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_tokens)
        model = os.path.join(folder, "model.onnx")
        session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
        # One sentence per run: int8 exports quantize activations with a range taken over the whole
        # batch, so a sentence's vector moves (cosine 0.992-0.998) with what it is batched beside.
        alone = lambda texts: np.concatenate([embed(session, tokenizer, [t], pooling) for t in texts])
        passages = alone([passage_prefix + s for s in SENTENCES])
        queries = alone([query_prefix + SENTENCES[i] for i in QUERIES])
        round6 = lambda rows: [[round(float(x), 6) for x in row] for row in rows]
        models[name] = {
            "family": family,
            "modelSha256": sha256(model),
            "passages": round6(passages),
            "queries": round6(queries),
        }
    json.dump(
        {
            "made": "scripts/realModels/embedderReference.py (onnxruntime "
            + onnxruntime.__version__
            + ")",
            "sentences": SENTENCES,
            "queries": QUERIES,
            "models": models,
        },
        sys.stdout,
        separators=(",", ":"),
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
