# Sourced by the `skillmd db` scripts: a temporary working directory, removed on exit,
# holding one file skill (`files/reminders.md`) for the database to sit beside.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir files
printf -- '---\nname: reminders\ndescription: Set reminders\ntriggers: [remind]\n---\nBody\n' > files/reminders.md
