"""Formulas under the 1,000-character limit but nested past what a recursive walk can take are refused with
one clear line when the tables load, on the command line (tests/test_hostile_rules.py) and on the page's
/rules, never a RecursionError."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from chargen.formulas import MAX_DEPTH, FormulaError, compile_formula
from chargen.web.app import create_app, shared

DEEP = {"minus signs": "-" * 500 + "base", "a long sum": "base" + "+1" * 495}


@pytest.mark.parametrize("text", DEEP.values(), ids=list(DEEP))
def test_a_deep_formula_is_refused_with_its_depth(text: str) -> None:
    with pytest.raises(FormulaError, match=f"nested more than {MAX_DEPTH} terms deep"):
        compile_formula(text, ("base",), {})


def test_a_formula_just_within_the_depth_still_works() -> None:
    assert compile_formula("base" + "+1" * 90, ("base",), {})(3) == 93
    assert compile_formula("-" * 90 + "base", ("base",), {})(3) == 3


@pytest.fixture
def client() -> Iterator[Any]:
    app = create_app()
    yield app.test_client()
    shared(app).close()


def test_the_page_refuses_a_deep_ruleset_with_the_reason(client: Any) -> None:
    text = f'change:\n  combat:\n    initiative:\n      formula: "{"-" * 500}modified_agility"\n'
    answer = client.post(
        "/rules",
        data={"ruleset": (io.BytesIO(text.encode()), "deep.yaml")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 422
    assert "nested more than 100 terms deep" in answer.get_data(as_text=True)
