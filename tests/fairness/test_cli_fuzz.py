"""Random command lines never crash either command-line tool: exit 0, 1 or 2 and no exception."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import fairness.core as fairness

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "sahrat_verify", ROOT / "verify" / "standalone" / "sahrat_verify.py"
)
standalone = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(standalone)

GOOD = {
    "--game": "jakaro",
    "--secret": "00" * 32,
    "--commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    "--id": "m1",
}
text = st.one_of(
    st.text(max_size=70),
    st.sampled_from(["", "=", "0=", "=5", "0=abc", "burn/1=4", "deal/1", "hand", "1e3", "-1=x"]),
    st.sampled_from(["f" * 64, "F" * 64, "g" * 64, "0" * 63, " " + "0" * 64 + "\n", "٠" * 64]),
)
extra = st.lists(
    st.tuples(st.sampled_from(["--seed", "--purpose", "--below", "--items", "--json"]), text),
    max_size=4,
)


def _argv(required: dict[str, str], more: list[tuple[str, str]]) -> list[str]:
    argv = [f"{k}={v}" for k, v in required.items()]
    for flag, value in more:
        argv += [flag] if flag == "--json" else [f"{flag}={value}"]
    return argv


def _exit_code(main, argv: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if code == 2:
        assert "error" in err.getvalue()
    return code


@given(
    required=st.fixed_dictionaries({k: st.one_of(st.just(v), text) for k, v in GOOD.items()}),
    more=extra,
)
@settings(max_examples=150, deadline=None)
def test_random_command_lines_end_cleanly(required: dict[str, str], more: list) -> None:
    argv = _argv(required, more)
    core, mine = _exit_code(fairness.main, argv), _exit_code(standalone.main, argv)
    assert core in (0, 1, 2) and mine in (0, 1, 2)
    # Both tools read the same options, so they must agree: success, mismatch or bad input.
    assert core == mine
