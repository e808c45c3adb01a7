#!/usr/bin/env bash
# The gettext catalogs: extract the words from the code into sawbones.pot, update each language's .po, compile them.
#   scripts/catalogs.sh extract   # src/sawbones/locale/sawbones.pot from the code and templates (babel.cfg)
#   scripts/catalogs.sh update    # extract, then merge the .pot into every <lang>/LC_MESSAGES/sawbones.po
#   scripts/catalogs.sh compile   # every .po to its .mo (bootstrap.sh does this; .mo files are not committed)
#   scripts/catalogs.sh check     # msgfmt --check and no untranslated or fuzzy entry, in every .po; no fault
#   scripts/catalogs.sh check DIR # the faults of a translator's folder (DIR/<lang>/LC_MESSAGES/sawbones.po), one a line
# docs/translating.md tells a translator what to do with them.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-.venv/bin/python}
locale=src/sawbones/locale
keywords=(-k _ -k ngettext:1,2 -k pgettext:1c,2 -k npgettext:1c,2,3 -k msg -k msgs:1,2 -k pmsg:1c,2 -k N_)
case "${1:-}" in
  extract)
    "$py" -m babel.messages.frontend extract -F babel.cfg --no-default-keywords "${keywords[@]}" \
      --no-location --sort-output --project sawbones --width 120 -o "$locale/sawbones.pot" src/sawbones 2>&1 | grep -v "^extracting\|^writing" || true ;;
  update)
    "$0" extract
    "$py" -m babel.messages.frontend update -i "$locale/sawbones.pot" -d "$locale" -D sawbones \
      --no-fuzzy-matching --ignore-obsolete --width 120 2>&1 | grep -v "^updating" || true ;;
  compile)
    out=$("$py" -m babel.messages.frontend compile -d "$locale" -D sawbones 2>&1) || { echo "$out" >&2; exit 1; } ;;
  check)
    if [ -n "${2:-}" ]; then
      exec "$py" -m sawbones.presentation.catalog_faults "${@:2}"
    fi
    status=0
    "$py" -m sawbones.presentation.catalog_faults "$locale" || status=1
    for po in "$locale"/*/LC_MESSAGES/sawbones.po; do
      msgfmt --check -o /dev/null "$po" || status=1
      untranslated=$(msgattrib --untranslated "$po" | grep -c '^msgid ' || true)
      fuzzy=$(msgattrib --only-fuzzy "$po" | grep -c '^msgid ' || true)
      if [ "$untranslated" -gt 0 ] || [ "$fuzzy" -gt 0 ]; then
        echo "$po: $untranslated untranslated, $fuzzy fuzzy"; status=1
      fi
    done
    exit $status ;;
  *) sed -n '2,8p' "$0"; exit 2 ;;
esac
