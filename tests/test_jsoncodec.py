"""The one JSON codec: what it accepts, what it writes, and its canonical form."""

from __future__ import annotations

import pytest

from shared import jsoncodec


@pytest.mark.parametrize(
    "body",
    [b"[NaN]", b"[Infinity]", b'{"a": 1e400}', b'"\\ud800"', b"[" * 2000 + b"]" * 2000, b"{", b""],
)
def test_input_json_cannot_hold_is_a_value_error(body: bytes):
    with pytest.raises(ValueError):
        jsoncodec.loads(body)


def test_number_keys_are_written_as_strings_as_the_standard_library_does():
    assert (
        jsoncodec.dumps({1: "a", "b": [1, 2.5, None, True]}) == b'{"1":"a","b":[1,2.5,null,true]}'
    )


def test_the_canonical_form_sorts_keys_at_every_depth_and_keeps_utf8():
    doc = {"b": {"z": 1, "a": "ñ"}, "a": [{"y": 0, "x": 1}]}
    assert jsoncodec.canonical(doc) == '{"a":[{"x":1,"y":0}],"b":{"a":"ñ","z":1}}'.encode()


def test_what_json_cannot_hold_is_refused_on_output():
    for value in ({"set": {"1O"}}, 2**64, {"at": object()}):
        with pytest.raises(TypeError):
            jsoncodec.dumps(value)
