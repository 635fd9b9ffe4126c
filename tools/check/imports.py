#!/usr/bin/env python3
"""Package.swift says what each target uses: every module a target's sources import is one of its
declared dependencies, and every dependency it declares is imported somewhere in it (CI runs this).
A system module (Foundation, Glibc, Testing, ...) needs no declaration. The manifest is read as
SwiftPM reads it (`swift package dump-package`); the sources are read for their `import` lines.

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
    for target in manifest["targets"]:
        if target["type"] == "system":
            continue
        folder = "Tests" if target["type"] == "test" else "Sources"
        directory = os.path.join(ROOT, target.get("path") or os.path.join(folder, target["name"]))
        uses = imported(directory) - SYSTEM - {target["name"]}
        declares = declared(target)
        for module in sorted(uses - declares):
            problems.append(f"{target['name']} imports {module}, which Package.swift does not declare as its dependency")
        if any(name.endswith(".swift") for _, _, files in os.walk(directory) for name in files):
            for module in sorted(declares - uses):
                problems.append(f"{target['name']} declares {module} in Package.swift but no file of it imports it")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"Package.swift: the dependencies of all {len(manifest['targets'])} targets are what they import")


if __name__ == "__main__":
    main()
