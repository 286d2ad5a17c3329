#!/usr/bin/env bash
# Regenerates the word lists from Debian's SCOWL-based dictionaries:
#   apt-get install wamerican wamerican-small
# answers.txt: five-letter lower-case words of the small (common) list,
#              without plain plurals; guesses.txt: those of the full list.
set -euo pipefail
cd "$(dirname "$0")"
grep -E '^[a-z]{5}$' /usr/share/dict/american-english-small | grep -vE '[^s]s$' | sort -u > answers.txt
{ grep -E '^[a-z]{5}$' /usr/share/dict/american-english; cat answers.txt; } | sort -u > guesses.txt
wc -l answers.txt guesses.txt
