#!/usr/bin/env bash
# Everything the CLI prints from files reaches the terminal escaped: names with escape
# sequences, new lines or tabs cannot retitle or clear the terminal or split a line.
set -u
cli=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
evil=$'evil\e]0;owned\a\e[2J'
mkdir -p "$t/skills/$evil" "$t/skills/ok"
printf -- '---\nname: ok\ndescription: caf\xc3\xa9 \xe2\x80\xae reversed and a long tail %s\n---\nBody.\n' "$(printf 'x%.0s' {1..80})" > "$t/skills/ok/SKILL.md"
printf -- '---\ndescription: an evil folder\n---\nBody.\n' > "$t/skills/$evil/SKILL.md"
mkdir -p "$t/skills/yaml-escapes"
# YAML's own escapes put ESC and BEL into the values themselves.
printf -- '---\nname: "yaml\\e]0;owned\\a\\e[2J"\ndescription: "clear \\e[2J\\e[H here"\n---\nBody.\n' > "$t/skills/yaml-escapes/SKILL.md"
mkdir -p "$t/files"
printf -- '---\nname: split\ndescription: d\ntriggers: [x]\n---\nB\n' > "$t/files/"$'line\nbreak\tand tab.md'
printf -- '---\nname: fine\ndescription: d\ntriggers: [x]\n---\nB\n' > "$t/files/fine.md"

out=$( { "$cli" list --preset claude-code --dir user="$t/skills";
         "$cli" tree --preset sven --dir project-sven="$t/skills";
         "$cli" lint "$t/skills";
         "$cli" db list --db "$t/k.db" --dir user="$t/files"; } 2>&1 )
failed=0
if printf '%s' "$out" | LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'; then
  echo "raw control characters reached the terminal:"; printf '%s' "$out" | od -c | head; failed=1
fi
if printf '%s' "$out" | LC_ALL=C grep -q $'\xe2\x80\xae'; then echo "a bidi override reached the terminal"; failed=1; fi
# Each `list` line keeps its four tab-separated fields.
"$cli" list --preset claude-code --dir user="$t/skills" 2>/dev/null | awk -F'\t' 'NF != 4 { bad = 1 } END { exit bad }' || { echo "a list line was split"; failed=1; }
# The files layout checks names as folders are: the file with a line break is refused, visibly.
printf '%s' "$out" | grep -qF 'line\x0abreak\x09and tab.md' || { echo "the odd file name is not reported escaped"; failed=1; }
[ "$failed" -eq 0 ] && echo "terminal-safe"
exit "$failed"
