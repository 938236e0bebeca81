#!/usr/bin/env bash
# Crawls a static directory with GNU Wget and with Sieve, and compares the HTML pages each found.
#
#   bench/vs-wget.sh CORPUS_DIR [START_PATH] [-- extra crawl options]
#   bench/vs-wget.sh /usr/share/doc/rust-doc/html          # the issue-13 acceptance check
#
# What it does, all on loopback, without a root daemon:
#   1. starts nginx on a free 127.0.0.1 port serving CORPUS_DIR, with its own config, logs and
#      temp files in a temporary directory (removed at the end, nginx stopped by its pid);
#   2. runs `wget -r -l inf -np` (robots on, one connection at a time) from START_PATH (default /);
#   3. runs `java -jar crawler-app/target/crawler.jar crawl --delay-ms 0` (every other setting
#      default: robots on, host scope, 8 threads, one fetch per host at a time) from the same URL;
#   4. compares the HTML pages each found. Both are read from nginx's access log, not from the
#      tools' own output, so both sides are measured the same way: a page is a request answered
#      200 with a text/html body, named by nginx's $uri (decoded, after `index` resolution, so
#      `/` counts as `/index.html`). The raw request lines ($request_uri) are compared too, so
#      spelling differences (percent-encoding, `/` vs `/index.html`) show up separately.
#
# Prints the counts, each tool's wall time, and the pages only one of them found (at most 20
# lines each; the full lists stay in the work directory when KEEP=1). Exit status 0 when the
# page sets are equal, 1 when they differ, 2 for a usage or setup error.
#
# `-l inf` because wget's default recursion depth is 5 and Sieve's is unlimited. wget fetches
# more than HTML (images, scripts, styles) and follows more than a[href] (frames, link, img);
# only HTML pages are compared. Needs nginx, wget and a built jar
# (`mvn -B -q -o package -DskipTests`); missing tools are installed with
# `apt-get install -y nginx wget rust-doc` when run as root. Not part of CI: a benchmark-style
# check that takes minutes on a large corpus.
set -euo pipefail

usage() { echo "usage: $0 CORPUS_DIR [START_PATH] [-- crawl options]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
corpus=$(cd "$1" && pwd) || usage
shift
start_path=/
if [[ $# -ge 1 && $1 != -- ]]; then start_path=$1; shift; fi
[[ ${1:-} == -- ]] && shift
extra=("$@")

repo=$(cd "$(dirname "$0")/.." && pwd)
jar=${JAR:-$repo/crawler-app/target/crawler.jar}
[[ -f $jar ]] || { echo "no $jar: run mvn -B -q -o package -DskipTests first" >&2; exit 2; }

need=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx)
command -v wget >/dev/null || need+=(wget)
if [[ ${#need[@]} -gt 0 ]]; then
  [[ $(id -u) == 0 ]] || { echo "missing: ${need[*]} (apt-get install -y ${need[*]})" >&2; exit 2; }
  apt-get install -y "${need[@]}" >/dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d "${TMPDIR:-/tmp}/vs-wget.XXXXXX")
nginx_pid=
cleanup() {
  if [[ -n $nginx_pid ]]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
  if [[ ${KEEP:-0} == 1 ]]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
mkdir -p "$work/tmp" "$work/wget"
# One log line per request: user agent, status, content type, $uri, raw request URI.
cat >"$work/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  log_format cmp '\$http_user_agent\t\$status\t\$sent_http_content_type\t\$uri\t\$request_uri';
  access_log $work/access.log cmp;
  server {
    listen 127.0.0.1:$port;
    root $corpus;
    index index.html;
  }
}
EOF
"$nginx_bin" -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for _ in $(seq 50); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),0.2)" 2>/dev/null && break
  sleep 0.1
done
: >"$work/access.log"

seconds() { date +%s.%N; }
start=$base$start_path
echo "corpus: $corpus"
echo "start:  $start"

t0=$(seconds)
# -e robots=on is wget's default, spelled out; no -nc, so wget keeps its own URL bookkeeping.
wget -r -l inf -np -nv -e robots=on -P "$work/wget" -o "$work/wget.log" "$start" || true
t1=$(seconds)
printf '%s\n' "$start" >"$work/seeds.txt"
# Run from the work directory, so that no config/crawler.properties changes the defaults.
(cd "$work" && java -jar "$jar" crawl --seeds seeds.txt --output sieve.jsonl --delay-ms 0 \
  "${extra[@]}") >"$work/sieve.out" 2>"$work/sieve.err" || {
  echo "crawl failed:" >&2; tail -20 "$work/sieve.err" >&2; exit 2; }
t2=$(seconds)

# HTML pages per tool, by the user agent nginx logged.
pages() { # $1 = agent pattern, $2 = field (4 = $uri, 5 = $request_uri)
  awk -F'\t' -v ua="$1" -v f="$2" '$1 ~ ua && $2 == 200 && $3 ~ /^text\/html/ { print $f }' \
    "$work/access.log" | sort -u
}
pages '^Wget' 4 >"$work/wget.pages"
pages '^SieveBot' 4 >"$work/sieve.pages"
pages '^Wget' 5 >"$work/wget.requests"
pages '^SieveBot' 5 >"$work/sieve.requests"
comm -23 "$work/wget.pages" "$work/sieve.pages" >"$work/only-wget.pages"
comm -13 "$work/wget.pages" "$work/sieve.pages" >"$work/only-sieve.pages"

echo
printf '%-28s %10s %10s\n' "" wget sieve
printf '%-28s %10d %10d\n' "HTML pages (\$uri)" "$(wc -l <"$work/wget.pages")" "$(wc -l <"$work/sieve.pages")"
printf '%-28s %10d %10d\n' "HTML request URIs" "$(wc -l <"$work/wget.requests")" "$(wc -l <"$work/sieve.requests")"
printf '%-28s %10d %10d\n' "requests, all" \
  "$(grep -c '^Wget' "$work/access.log" || true)" "$(grep -c '^SieveBot' "$work/access.log" || true)"
printf '%-28s %10.1f %10.1f\n' "wall time, s" "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")"
echo
echo "pages only wget found: $(wc -l <"$work/only-wget.pages")"
head -20 "$work/only-wget.pages" | sed 's/^/  /'
echo "pages only sieve found: $(wc -l <"$work/only-sieve.pages")"
head -20 "$work/only-sieve.pages" | sed 's/^/  /'
echo "HTML request URIs only one of them sent: $(comm -3 "$work/wget.requests" "$work/sieve.requests" | wc -l)"
comm -3 "$work/wget.requests" "$work/sieve.requests" | head -20 | sed 's/^\t*/  /'
echo
echo "sieve summary:"
sed 's/^/  /' "$work/sieve.out"
[[ -s $work/only-wget.pages || -s $work/only-sieve.pages ]] && exit 1
exit 0
