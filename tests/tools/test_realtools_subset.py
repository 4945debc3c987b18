"""The CI subset's budget (:func:`tools.realtools.__main__.subset_shares`)."""

from tools.realtools.__main__ import LIMIT_MB, SUBSET_MB, subset_shares
from tools.realtools.sources import all_sources


def test_own_shares_are_kept_and_the_rest_split_equally(tmp_path):
    sources = all_sources()
    shares = subset_shares([tmp_path / name for name in sources], SUBSET_MB)
    own = {n: m.SUBSET_MB for n, m in sources.items() if hasattr(m, "SUBSET_MB")}
    shared = [n for n in sources if n not in own]
    assert all(shares[n] == mb * 1e6 for n, mb in own.items())
    assert all(abs(shares[n] - SUBSET_MB * 1e6 / len(shared)) < 1 for n in shared)
    assert sum(shares.values()) <= LIMIT_MB * 1e6


def test_shares_count_only_the_built_sources(tmp_path):
    shares = subset_shares([tmp_path / "graphviz", tmp_path / "mermaid11"], 2.0)
    assert shares == {"graphviz": 1e6, "mermaid11": 1e6}
