#!/usr/bin/env bash
# Lint is the loader: over one hostile tree, `skillmd lint` reports an error for a
# SKILL.md exactly when `skillmd list` (a registry of the same dialect) does not load it,
# and `list` says why for every file it skips.
set -u
cli=$1
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
skill() { mkdir -p "$tree/$1"; printf -- '---\nname: %s\ndescription: %s\n---\nBody.\n' "$1" "$2" > "$tree/$1/SKILL.md"; }

skill good "A good skill"
mkdir -p "$tree/colon"; printf -- '---\nname: colon\ndescription: Use when: the user asks\n---\nBody.\n' > "$tree/colon/SKILL.md"
skill huge "Too big"; head -c 2000000 /dev/zero | tr '\0' 'x' >> "$tree/huge/SKILL.md"
mkdir -p "$tree/binary"; printf '\177ELF\002\001\001\000\000\000\000' > "$tree/binary/SKILL.md"
mkdir -p "$tree/nul-body"; printf -- '---\nname: nul-body\ndescription: d\n---\nok\000then\n' > "$tree/nul-body/SKILL.md"
mkdir -p "$tree/latin1"; printf '# Caf\351\n\nNo frontmatter, Latin-1.\n' > "$tree/latin1/SKILL.md"
mkdir -p "$tree/utf16"; printf '\377\376-\000-\000-\000\n\000' > "$tree/utf16/SKILL.md"
mkdir -p "$tree/dangling"; ln -s "$tree/nowhere/SKILL.md" "$tree/dangling/SKILL.md"
mkdir -p "$tree/self-loop"; ln -s SKILL.md "$tree/self-loop/SKILL.md"
mkdir -p "$tree/fifo"; mkfifo "$tree/fifo/SKILL.md"
mkdir -p "$tree/wrong-case"; printf -- '---\nname: wrong-case\ndescription: d\n---\n' > "$tree/wrong-case/skill.md"
mkdir -p "$tree/bad-yaml"; printf -- '---\nname: bad-yaml\ndescription: [unclosed\n---\n' > "$tree/bad-yaml/SKILL.md"
mkdir -p "$tree/empty-folder"
ln -s .. "$tree/good/up" # a directory loop

lint=$("$cli" lint --format json "$tree" 2>/dev/null)
lint_status=$?
list=$("$cli" list --preset agent-skills --dir project="$tree" --format json 2>"$tree.err")
list_err=$(cat "$tree.err"); rm -f "$tree.err"

failed=0
for case in good colon huge binary nul-body latin1 utf16 dangling self-loop fifo wrong-case bad-yaml; do
  file="$tree/$case/SKILL.md"
  loaded=no; grep -qF "\"path\":\"$file\"" <<<"$list" && loaded=yes
  errors=no; grep -F "\"file\":\"$file\"" <<<"$lint" | grep -qF '"severity":"error"' && errors=yes
  if [ "$loaded" = "$errors" ]; then
    echo "DISAGREE $case: list loaded=$loaded, lint error=$errors"; failed=1
  fi
  if [ "$loaded" = no ] && ! grep -qF "$file" <<<"$list_err"; then
    echo "SILENT $case: list skipped it without a word"; failed=1
  fi
done
# Only the good and the recovered skill load; lint fails the tree.
[ "$(grep -o '"path"' <<<"$list" | wc -l)" -eq 2 ] || { echo "list loaded: $list"; failed=1; }
[ "$lint_status" -eq 1 ] || { echo "lint exit status $lint_status, wanted 1"; failed=1; }
# An empty tree says where it looked.
"$cli" lint "$tree/empty-folder" 2>/dev/null | grep -q "lint-no-skills" || { echo "empty tree: no diagnostic"; failed=1; }
[ "$failed" -eq 0 ] && echo "lint and list agree on every file"
exit "$failed"
