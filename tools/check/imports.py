#!/usr/bin/env python3
"""Package.swift says what each target uses: every module a target's sources import is one of its
declared dependencies, and every dependency it declares is imported somewhere in it (CI runs this).
A system module (Foundation, Glibc, Testing, ...) needs no declaration. The manifest is read as
SwiftPM reads it (`swift package dump-package`); the sources are read for their `import` lines.
And the house plan as built (docs/architecture.md) stays true: every module of Sources/ has a row
in its table, and imports only what its row allows ("NIO" stands for SwiftNIO's modules).

Usage: imports.py [--manifest FILE]   (FILE: the output of swift package dump-package)
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM = {"Foundation", "FoundationEssentials", "Glibc", "Darwin", "Musl", "Dispatch", "Synchronization", "Testing", "XCTest",
          "_Concurrency", "os", "CoreFoundation", "PackageDescription"}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def declared(target):
    """The modules `target` declares: targets by name, products by their module's name."""
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        names.add(value[0])
    return names


def code(source):
    """The lines of a Swift file outside multi-line string literals (a Python script a test writes
    holds `import` lines of its own)."""
    inside = False
    for line in source.splitlines():
        if not inside:
            yield line
        if line.count('"""') % 2:
            inside = not inside


def imported(directory):
    """Every module imported by a Swift file under `directory`."""
    modules = set()
    for folder, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(folder, name), encoding="utf-8") as source:
                    modules.update(IMPORT.findall("\n".join(code(source.read()))))
    return modules


PLAN = os.path.join(ROOT, "docs", "architecture.md")
NIO = {"NIOCore", "NIOPosix", "NIOEmbedded", "NIOConcurrencyHelpers", "NIOExtras", "NIOHTTP1"}


def plan():
    """The modules each module may import, by the table of docs/architecture.md."""
    allowed = {}
    with open(PLAN, encoding="utf-8") as file:
        for line in file:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not line.startswith("|") or len(cells) != 3 or cells[0] in ("module", "") or set(cells[0]) <= {"-"}:
                continue
            names = set()
            for name in filter(None, (part.strip() for part in cells[2].split(","))):
                if name == "NIO":
                    names |= NIO
                elif name == "every module above":
                    names |= set(allowed)
                else:
                    names.add(name)
            allowed[cells[0]] = names
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest")
    args = parser.parse_args()
    if args.manifest:
        with open(args.manifest, encoding="utf-8") as file:
            manifest = json.load(file)
    else:
        manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    problems = []
    allowed = plan()
    for target in manifest["targets"]:
        in_sources = os.path.isdir(os.path.join(ROOT, "Sources", target["name"]))
        if in_sources and target["name"] not in allowed:
            problems.append(f"{target['name']} has no row in docs/architecture.md: say what it may import there")
        if target["type"] == "system":
            continue
        folder = "Tests" if target["type"] == "test" else "Sources"
        directory = os.path.join(ROOT, target.get("path") or os.path.join(folder, target["name"]))
        uses = imported(directory) - SYSTEM - {target["name"]}
        declares = declared(target)
        if in_sources and target["name"] in allowed:
            for module in sorted(uses - allowed[target["name"]]):
                problems.append(f"{target['name']} imports {module}, which docs/architecture.md does not let it import")
        for module in sorted(uses - declares):
            problems.append(f"{target['name']} imports {module}, which Package.swift does not declare as its dependency")
        if any(name.endswith(".swift") for _, _, files in os.walk(directory) for name in files):
            for module in sorted(declares - uses):
                problems.append(f"{target['name']} declares {module} in Package.swift but no file of it imports it")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"Package.swift: the dependencies of all {len(manifest['targets'])} targets are what they import, as docs/architecture.md allows")


if __name__ == "__main__":
    main()
