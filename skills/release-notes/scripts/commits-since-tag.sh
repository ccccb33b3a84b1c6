#!/bin/sh
# Lists the commits since the most recent tag, one subject per line.
set -eu
last=$(git describe --tags --abbrev=0 2>/dev/null || git rev-list --max-parents=0 HEAD)
git log --format='%h %s' "$last"..HEAD
