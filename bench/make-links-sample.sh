#!/bin/sh
# Rebuilds crawler-core/src/test/resources/corpus/links-sample.zip, the real pages
# LinkScannerCorpusTest compares the streaming link scanner with the Jsoup DOM on.
# Deterministic: in sorted path order, every 30th cppreference page and every 150th rust-doc page
# (the first of each group), plus the first 10 pages of each corpus with an inline <svg> and the
# rust-doc pages with a <base> or <select>. Needs the Debian packages cppreference-doc-en-html and
# rust-doc, and zip.
set -eu
cpp=${CPP_DOCS:-/usr/share/cppreference/doc/html}
rust=${RUST_DOCS:-/usr/share/doc/rust-doc/html}
out=$(cd "$(dirname "$0")/.." && pwd)/crawler-core/src/test/resources/corpus/links-sample.zip
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C

pick() { # corpus-dir name every-nth
  (cd "$1" && {
    find . -name '*.html' | sort | awk -v n="$3" 'NR % n == 1'
    find . -name '*.html' | sort | xargs grep -l '<svg' | head -10
    if [ "$2" = rust-doc ]; then find . -name '*.html' | sort | xargs grep -lE '<base |<select' ; fi
  } | sort -u | while read -r f; do
    mkdir -p "$tmp/$2/$(dirname "$f")"
    cp "$f" "$tmp/$2/$f"
  done)
}
pick "$cpp" cppreference 30
pick "$rust" rust-doc 150
cp "$(dirname "$0")/../crawler-core/src/test/resources/corpus/NOTICE" "$tmp/" 2>/dev/null || true
rm -f "$out"
(cd "$tmp" && zip -q -r -9 -X "$out" .)
echo "$(cd "$tmp" && find . -name '*.html' | wc -l) pages, $(wc -c < "$out") bytes: $out"
