#!/usr/bin/env bash
# Check that the tests leave the checkout as they found it.
#
#   state="$(bash .ci/check-clean.sh snapshot)"     # before the tests
#   bash .ci/check-clean.sh compare "$state"        # after: exit 1 and list what changed
#
# The state is one line per path that git reports as changed or untracked (ignored paths such as
# artifacts/ are not part of it), with a hash of the file's content. Comparing hashes, not only
# git's status letters, means a developer's own uncommitted edits made before the run pass, while
# a test that writes into one of those same files is still caught. Outside a git checkout
# (an unpacked archive) there is nothing to compare, and both commands do nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

snapshot() {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
    local entry path hash
    # -z: paths verbatim (no quoting); a rename is followed by its old path as a separate entry
    git status --porcelain=v1 -z --untracked-files=all | while IFS= read -r -d '' entry; do
        path="${entry:3}"
        case "${entry:0:1}" in R | C) IFS= read -r -d '' _ || true ;; esac
        if [ -f "$path" ] || [ -L "$path" ]; then
            hash="$(git hash-object --no-filters -- "$path")"
        else
            hash="deleted"
        fi
        printf '%s %s %s\n' "${entry:0:2}" "$hash" "$path"
    done | LC_ALL=C sort
}

case "${1:-}" in
snapshot)
    snapshot
    ;;
compare)
    before="$(printf '%s' "${2-}")" # drop trailing newlines, as "$(snapshot)" does
    after="$(snapshot)"
    if [ "$before" != "$after" ]; then
        echo "check-clean: the tests changed the checkout; write into tmp_path or artifacts/ instead:" >&2
        # the paths whose status or content differ, each once
        diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed -n 's/^[<>] .. [^ ]* //p' \
            | LC_ALL=C sort -u | sed 's/^/  /' >&2
        exit 1
    fi
    ;;
*)
    echo "usage: $0 snapshot | compare STATE" >&2
    exit 2
    ;;
esac
