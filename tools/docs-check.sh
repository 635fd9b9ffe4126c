#!/usr/bin/env bash
# DocC for the libraries users import (DecafWire, DecafSession, DecafNIO), built with
# swift-docc-plugin into .build/docs/MODULE.doccarchive. Fails on any DocC warning (a broken
# symbol link, a malformed comment) and on any public symbol of ours without documentation, read
# from the symbol graphs the plugin extracts (members a type inherits from the standard library,
# such as != or Sequence's methods, are documented there, not here).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(DecafWire DecafSession DecafNIO)
out=.build/docs
rm -rf "$out"
mkdir -p "$out"
# One run of the plugin for the three (one build and one symbol extraction, not three): it writes
# each archive into $out as MODULE.doccarchive.
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
swift package --allow-writing-to-directory "$out" generate-documentation "${arguments[@]}" \
    --output-path "$out" --warnings-as-errors > "$out/docc.log" 2>&1 \
    || { cat "$out/docc.log" >&2; echo "DocC refused the documentation (above)" >&2; exit 1; }
for target in "${targets[@]}"; do
    [ -d "$out/$target.doccarchive" ] || { cat "$out/docc.log" >&2; echo "DocC wrote no archive for $target" >&2; exit 1; }
done
python3 - "${targets[@]}" <<'PY'
import glob, json, sys
missing, counted = [], 0
for target in sys.argv[1:]:
    graphs = glob.glob(f".build/*/extracted-symbols/*/{target}/*.symbols.json")
    if not graphs:
        sys.exit(f"no symbol graph of {target} was extracted")
    for graph in graphs:
        for symbol in json.load(open(graph))["symbols"]:
            uri = symbol.get("location", {}).get("uri", "")
            if f"/Sources/{target}/" not in uri or symbol.get("accessLevel") not in ("public", "open"):
                continue
            counted += 1
            if "docComment" not in symbol:
                line = symbol["location"]["position"]["line"] + 1
                missing.append(f"{uri.split('/Sources/', 1)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
if missing:
    print(f"{len(missing)} public symbols have no documentation comment:", file=sys.stderr)
    print("\n".join(sorted(missing)[:80]), file=sys.stderr)
    sys.exit(1)
print(f"DocC: {', '.join(sys.argv[1:])} build without warnings; all {counted} public symbols documented; archives in .build/docs")
PY
