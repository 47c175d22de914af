"""Second opinion on `ndshard svg`: Python's own XML parser must accept the output, and
the page cells must match `ndshard map` (usage: svg_etree_check.py <ndshard>)."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

SPECS = [
    ["--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"],
    ["--tensor", "10,10,10", "--shard", "4,5,5", "--grid", "2x2"],
    ["--tensor", "2,4,6,6", "--shard", "1,2,3,3", "--grid", "2x4"],
    ["--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores", "(0,0)-(3,3)"],
    ["--tensor", "5,7", "--shard", "2,3", "--grid", "2x2", "--strategy", "contiguous_1d"],
]
NS = "{http://www.w3.org/2000/svg}"


def main(exe):
    for flags in SPECS:
        svg = subprocess.run([exe, "svg", *flags], check=True, capture_output=True, text=True).stdout
        mapped = json.loads(subprocess.run([exe, "map", *flags], check=True, capture_output=True, text=True).stdout)
        root = ET.fromstring(svg)
        assert root.tag == NS + "svg", root.tag
        core_of = {p: c for c, core in enumerate(mapped["cores"]) for p in core["pages"] if p is not None}
        legend = {int(g.get("data-core")): g.get("fill") for g in root.iter(NS + "g") if g.get("class") == "legend"}
        cells = [g for g in root.iter(NS + "g") if g.get("class") == "page"]
        assert len(cells) == len(core_of), (flags, len(cells), len(core_of))
        seen = set()
        for g in cells:
            page, core = int(g.get("data-page")), int(g.get("data-core"))
            assert page not in seen, (flags, "page drawn twice", page)
            seen.add(page)
            assert core_of[page] == core, (flags, page, core, core_of[page])
            assert g.get("fill") == legend[core], (flags, page, g.get("fill"), legend[core])
        print("ok", " ".join(flags), len(cells), "cells")


if __name__ == "__main__":
    main(sys.argv[1])
