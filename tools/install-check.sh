#!/usr/bin/env bash
# What a user does after `make install`, in a scratch prefix: `man decaf` shows decaf's manual, and
# tab completion in bash offers decaf's commands. The debug build (which `make test` has built) is
# installed, so the check costs seconds, not a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make install PREFIX="$prefix" CONFIGURATION=debug > "$prefix/install.log" 2>&1 || { cat "$prefix/install.log" >&2; exit 1; }
grep -q "its man page: $prefix/share/man/man1/decaf.1" "$prefix/install.log" || { echo "make install did not say where the man page went" >&2; exit 1; }
if command -v man >/dev/null; then
    manual=$(MANPATH="$prefix/share/man" MANWIDTH=100 man decaf 2>&1) || { echo "man decaf failed: $manual" >&2; exit 1; }
else
    manual=$(cat "$prefix/share/man/man1/decaf.1")  # a machine without man-db: the page's own text
fi
grep -q "conform" <<<"$manual" || { echo "man decaf does not show decaf's commands: $(head -5 <<<"$manual")" >&2; exit 1; }
offered=$(bash -c "source '$prefix/share/bash-completion/completions/decaf'; COMP_WORDS=(decaf con); COMP_CWORD=1; COMP_LINE='decaf con'; COMP_POINT=9; _decaf; printf '%s\n' \"\${COMPREPLY[@]}\"")
grep -qx conform <<<"$offered" || { echo "tab completion of 'decaf con' offers: $offered" >&2; exit 1; }
for file in "$prefix/share/zsh/site-functions/_decaf" "$prefix/share/fish/vendor_completions.d/decaf.fish"; do
    [ -s "$file" ] || { echo "$file is missing or empty" >&2; exit 1; }
done
echo "make install: decaf, man decaf and completions for bash, zsh and fish work from $prefix"
